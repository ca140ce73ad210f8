import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the fake endpoint answers to one chat request. */
export type FakeReply =
  | {
      kind: "content";
      content: string;
      finishReason?: "stop" | "length";
      delayMs?: number;
      /** Reported token counts; by default about four characters per token of request and reply. */
      usage?: { promptTokens: number; completionTokens: number };
    }
  /** An OpenAI-shaped error body (`{ error: { message, type } }`) with this status. */
  | { kind: "status"; status: number; message: string }
  /** No answer at all until the endpoint is closed. */
  | { kind: "hang" };

export interface FakeAuxEndpoint {
  /** e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Parsed request bodies of POST /v1/chat/completions, in arrival order. */
  requests(): unknown[];
  /** Stops listening and drops open connections (hanging requests included). */
  close(): Promise<void>;
}

/**
 * A non-streaming OpenAI Chat Completions endpoint on 127.0.0.1 whose replies come from
 * `respond(body, index)`, for testing the auxiliary-model client over real HTTP.
 */
export async function startFakeAuxEndpoint(options: { respond: (body: unknown, index: number) => FakeReply | Promise<FakeReply> }): Promise<FakeAuxEndpoint> {
  const { respond } = options;
  const bodies: unknown[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
      sendJson(res, 404, { error: { message: `no route for ${req.method} ${req.url}`, type: "not_found_error" } });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      sendJson(res, 400, { error: { message: "request body is not JSON", type: "invalid_request_error" } });
      return;
    }
    const index = bodies.push(body) - 1;
    const reply = await respond(body, index);
    if (reply.kind === "hang") return;
    if (reply.kind === "status") {
      const type = reply.status >= 500 ? "server_error" : "invalid_request_error";
      sendJson(res, reply.status, { error: { message: reply.message, type } });
      return;
    }
    const completion = completionFor({ body, index, reply });
    if (!reply.delayMs) {
      sendJson(res, 200, completion);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) sendJson(res, 200, completion);
    }, reply.delayMs);
    timers.add(timer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, 500, { error: { message, type: "server_error" } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => [...bodies],
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function completionFor(options: { body: unknown; index: number; reply: Extract<FakeReply, { kind: "content" }> }) {
  const { body, index, reply } = options;
  const model = typeof body === "object" && body !== null && "model" in body && typeof body.model === "string" ? body.model : "fake";
  const prompt_tokens = reply.usage?.promptTokens ?? Math.max(1, Math.ceil(JSON.stringify(body).length / 4));
  const completion_tokens = reply.usage?.completionTokens ?? Math.max(1, Math.ceil(reply.content.length / 4));
  return {
    id: `chatcmpl-fake-${index}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: reply.finishReason ?? "stop" }],
    usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
