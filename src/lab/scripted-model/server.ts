import { appendFile, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";
import { atLine, parseJsonl } from "../jsonl/read-jsonl.js";
import type { Reply, Script } from "./script.js";
import { type ChatRequestBody, ChatRequestBodySchema, type Responder, selectReply } from "./select-reply.js";

export interface ScriptedModelOptions {
  script: Script | Responder;
  /** JSONL file; one `{ index, path, body }` line per chat request, in arrival order. */
  logFile: string;
  /** 0 (default) picks a random free port. */
  port?: number;
  /** Id reported by GET /v1/models. */
  model?: string;
  /**
   * The model's context window in estimated tokens. A request whose messages plus its
   * `max_tokens` exceed it is refused as a provider refuses it (400,
   * `context_length_exceeded`), which OpenCode answers with a compaction. Unset: no limit.
   */
  contextLimit?: number;
  /**
   * A directory counted as if it were `/run` in the token estimate (usage and window), so a
   * run's compactions do not depend on where it lives: the benchmark passes its run directory,
   * which every request names in its workspace paths.
   */
  neutralDir?: string;
}

const RecordedRequestSchema = z.object({
  index: z.number().int(),
  path: z.string(),
  body: z.unknown(),
});
export type RecordedRequest = z.infer<typeof RecordedRequestSchema>;

export interface ScriptedModel {
  /** Base URL for `@ai-sdk/openai-compatible`, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  port: number;
  /** Parses the log file. */
  requests(): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

const CHAT_PATHS = new Set(["/v1/chat/completions", "/chat/completions"]);
const MODELS_PATHS = new Set(["/v1/models", "/models"]);

/** Thrown by a Responder to answer with a chosen HTTP status (e.g. 400, a non-retryable error). */
export class ScriptedModelError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ScriptedModelError";
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const type = status >= 500 ? "server_error" : status === 404 ? "not_found_error" : "invalid_request_error";
  sendJson(res, status, { error: { message, type } });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/** Deterministic token estimate (~4 chars per token, minimum 1) so benchmark runs are reproducible. */
function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/** The estimated prompt tokens of a request, `neutralDir` counted as `/run`. */
function promptTokens(body: ChatRequestBody, neutralDir: string | undefined): number {
  const text = JSON.stringify(body.messages);
  return estimateTokens(neutralDir ? text.replaceAll(neutralDir, "/run").length : text.length);
}

/** The refusal of a request that does not fit `limit`, worded as OpenAI words it; undefined when it fits. */
function contextOverflow(body: ChatRequestBody, limit: number | undefined, neutralDir: string | undefined): string | undefined {
  if (limit === undefined) return undefined;
  const prompt = promptTokens(body, neutralDir);
  const completion = typeof body.max_tokens === "number" ? body.max_tokens : 0;
  if (prompt + completion <= limit) return undefined;
  return `This model's maximum context length is ${limit} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion).`;
}

function usageFor(body: ChatRequestBody, reply: Reply, neutralDir?: string) {
  const prompt_tokens = promptTokens(body, neutralDir);
  const completionChars = (reply.text ?? "").length + (reply.toolCalls ? JSON.stringify(reply.toolCalls).length : 0);
  const completion_tokens = estimateTokens(completionChars);
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    prompt_tokens_details: { cached_tokens: 0 },
  };
}

function toolCallsFor(reply: Reply, index: number) {
  return (reply.toolCalls ?? []).map((call, i) => ({
    id: `call_${index}_${i}`,
    type: "function" as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

/** Splits a string into up to `parts` non-empty pieces (deterministic) to exercise stream reassembly. */
function splitText(text: string, parts: number): string[] {
  if (text.length === 0) return [];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** The full list of SSE chunk objects for one streamed reply, in wire order. */
function streamChunks(body: ChatRequestBody, reply: Reply, index: number, neutralDir?: string): unknown[] {
  const base = { id: `chatcmpl-${index}`, object: "chat.completion.chunk", created: 0, model: body.model ?? "scripted" };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant" })];
  for (const piece of splitText(reply.text ?? "", 3)) chunks.push(chunk({ content: piece }));
  toolCallsFor(reply, index).forEach((call, i) => {
    chunks.push(chunk({ tool_calls: [{ index: i, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    for (const piece of splitText(call.function.arguments, 2)) {
      chunks.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, reply.toolCalls?.length ? "tool_calls" : "stop"));
  // Usage is sent even without stream_options.include_usage: OpenCode needs it for its context accounting.
  chunks.push({ ...base, choices: [], usage: usageFor(body, reply, neutralDir) });
  return chunks;
}

/** Non-streaming `chat.completion` response object. */
function completionFor(body: ChatRequestBody, reply: Reply, index: number, neutralDir?: string): unknown {
  const toolCalls = toolCallsFor(reply, index);
  return {
    id: `chatcmpl-${index}`,
    object: "chat.completion",
    created: 0,
    model: body.model ?? "scripted",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: usageFor(body, reply, neutralDir),
  };
}

/** Starts the OpenAI-compatible scripted model on 127.0.0.1. */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const { script, logFile } = options;
  const respond: Responder = typeof script === "function" ? script : ({ body }) => selectReply({ script, body }).reply;
  const sockets = new Set<Socket>();
  let nextIndex = 0;
  // Log writes are chained so lines land in arrival order even if appends overlap.
  let logQueue: Promise<void> = Promise.resolve();

  async function handleChat(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const text = await readBody(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new HttpError(400, `Invalid JSON body: ${messageOf(error)}`);
    }
    const index = nextIndex++;
    const line = `${JSON.stringify({ index, path, body: parsed })}\n`;
    logQueue = logQueue.then(() => appendFile(logFile, line, "utf8"));
    await logQueue;

    const check = ChatRequestBodySchema.safeParse(parsed);
    if (!check.success) {
      const issue = check.error.issues[0];
      throw new HttpError(400, `Invalid request: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "bad body"}`);
    }
    const body = check.data;
    const overflow = contextOverflow(body, options.contextLimit, options.neutralDir);
    if (overflow) {
      sendJson(res, 400, { error: { message: overflow, type: "invalid_request_error", code: "context_length_exceeded" } });
      return;
    }
    let reply: Reply;
    try {
      reply = await respond({ body, index });
    } catch (error) {
      const status = error instanceof ScriptedModelError ? error.status : 500;
      throw new HttpError(status, messageOf(error));
    }

    if (body.stream === true) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      for (const chunk of streamChunks(body, reply, index, options.neutralDir)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end("data: [DONE]\n\n");
      return;
    }
    sendJson(res, 200, completionFor(body, reply, index, options.neutralDir));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method === "POST" && CHAT_PATHS.has(path)) return handleChat(req, res, path);
    if (req.method === "GET" && MODELS_PATHS.has(path)) {
      return sendJson(res, 200, { object: "list", data: [{ id: options.model ?? "scripted", object: "model" }] });
    }
    req.resume();
    throw new HttpError(404, `Unknown route: ${req.method ?? "?"} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const message = messageOf(error);
      if (!res.headersSent) sendError(res, status, message);
      else res.end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    async requests() {
      let text: string;
      try {
        text = await readFile(logFile, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return parseJsonl(text).map((entry) => {
        if (!entry.ok) throw new Error(atLine(logFile, entry.line, `not JSON (${entry.reason})`));
        return RecordedRequestSchema.parse(entry.value);
      });
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Destroy keep-alive sockets so close() never waits on idle clients.
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
