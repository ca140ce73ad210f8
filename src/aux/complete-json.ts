import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { z } from "zod";
import { redactSecrets } from "../core/redact-secrets.js";
import type { AuxClient, AuxFormat } from "./aux-client.js";
import { AuxError } from "./aux-error.js";

/** What one `completeJson` cost, summed over every HTTP call it made. */
export interface AuxUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Wall time of the whole `completeJson`, fallbacks and retry included. */
  ms: number;
  /** The response format of the last call. */
  format: AuxFormat;
}

export type JsonResult<T> = { ok: true; value: T; usage: AuxUsage } | { ok: false; error: AuxError; usage: AuxUsage };

export interface CompleteJsonOptions<S extends z.ZodType> {
  client: AuxClient;
  /** Names the schema in `json_schema` mode. */
  name: string;
  /** The reply must parse as this schema's input; the result is its output. */
  schema: S;
  system: string;
  user: string;
}

/** The fields of a chat completion this module reads; anything else the endpoint sends is ignored. */
const CompletionSchema = z.object({
  choices: z.array(
    z.object({
      message: z.object({ content: z.string().nullish() }).nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});

/** HTTP statuses with which endpoints turn down a `response_format` they do not support. */
const REJECTION_STATUSES = new Set([400, 404, 415, 422]);

const NEXT_FORMAT: Record<AuxFormat, AuxFormat | undefined> = {
  json_schema: "json_object",
  json_object: "text",
  text: undefined,
};

/**
 * Asks the auxiliary model for one JSON object and validates it with `schema`. Never throws.
 *
 * An endpoint that rejects `json_schema` is asked again with `json_object`, then with plain
 * text (the schema is in the system prompt in every mode), and the client remembers the
 * format that worked. A blank, cut-off, non-JSON or off-schema reply is retried once, with
 * the problem stated; connection failures, timeouts and other HTTP errors are not retried.
 */
export async function completeJson<S extends z.ZodType>(options: CompleteJsonOptions<S>): Promise<JsonResult<z.output<S>>> {
  const started = performance.now();
  const usage: AuxUsage = { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0, format: options.client.format };
  let outcome: { ok: true; value: z.output<S> } | { ok: false; error: AuxError };
  try {
    outcome = await converse(options, usage);
  } catch (error) {
    const message = `auxiliary model call failed unexpectedly: ${messageOf(error)}`;
    outcome = { ok: false, error: new AuxError({ code: "http", message, cause: error }) };
  }
  usage.ms = Math.round(performance.now() - started);
  return { ...outcome, usage };
}

async function converse<S extends z.ZodType>(
  options: CompleteJsonOptions<S>,
  usage: AuxUsage,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; error: AuxError }> {
  const { client, name, schema, system, user } = options;
  const jsonSchema = jsonSchemaOf(schema);
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: `${system}\n\nReply with one JSON object matching this JSON Schema:\n${JSON.stringify(jsonSchema)}` },
    { role: "user", content: user },
  ];
  let format = client.format;
  const rejections: string[] = [];
  let retried = false;
  for (;;) {
    usage.calls += 1;
    usage.format = format;
    let response: unknown;
    try {
      response = await client.openai.chat.completions.create(requestFor({ client, format, messages, name, jsonSchema }));
    } catch (error) {
      const rejected = isFormatRejection(error);
      const next = NEXT_FORMAT[format];
      if (rejected) rejections.push(`${format} (${messageOf(error)})`);
      if (rejected && next !== undefined) {
        format = next;
        continue;
      }
      // Fell back at least once and the last format (plain text) was turned down as well.
      const everyFormatRejected = rejected && rejections.length > 1;
      return { ok: false, error: callError({ error, client, everyFormatRejected, rejections }) };
    }
    const completion = CompletionSchema.safeParse(response);
    if (!completion.success) {
      const message = `the endpoint's response is not a chat completion: ${completion.error.issues[0]?.message ?? "bad shape"}`;
      return { ok: false, error: new AuxError({ code: "http", message }) };
    }
    client.rememberFormat(format);
    usage.inputTokens += completion.data.usage?.prompt_tokens ?? 0;
    usage.outputTokens += completion.data.usage?.completion_tokens ?? 0;

    const reply = readReply(completion.data, schema);
    if (reply.ok) return reply;
    if (retried) return { ok: false, error: reply.error };
    retried = true;
    if (reply.content.trim() !== "") messages.push({ role: "assistant", content: reply.content });
    messages.push({ role: "user", content: reply.correction });
  }
}

/** The JSON Schema of what the model must write (the schema's input side), without `$schema`. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

function requestFor(options: {
  client: AuxClient;
  format: AuxFormat;
  messages: ChatCompletionMessageParam[];
  name: string;
  jsonSchema: Record<string, unknown>;
}): ChatCompletionCreateParamsNonStreaming {
  const { client, format, messages, name, jsonSchema } = options;
  // Every request to the auxiliary model is built here, so this is where secrets are removed:
  // from the prompts, and from the model's own reply and the correction sent back on a retry.
  const redacted = messages.map((message) =>
    typeof message.content === "string" ? { ...message, content: redactSecrets(message.content) } : message,
  );
  const request: ChatCompletionCreateParamsNonStreaming = { model: client.model, messages: redacted, stream: false };
  if (client.maxTokens !== undefined) request.max_tokens = client.maxTokens;
  if (format === "json_schema") {
    // OpenAI allows letters, digits, `_` and `-`, at most 64 characters.
    const schemaName = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "reply";
    request.response_format = { type: "json_schema", json_schema: { name: schemaName, schema: jsonSchema, strict: false } };
  } else if (format === "json_object") {
    request.response_format = { type: "json_object" };
  }
  return request;
}

function isFormatRejection(error: unknown): boolean {
  if (!(error instanceof APIError) || error instanceof APIConnectionError || error.status === undefined) return false;
  return REJECTION_STATUSES.has(error.status) || /response_format|json_schema|json_object/i.test(error.message);
}

function callError(options: {
  error: unknown;
  client: AuxClient;
  everyFormatRejected: boolean;
  rejections: string[];
}): AuxError {
  const { error, client, everyFormatRejected, rejections } = options;
  if (error instanceof APIConnectionTimeoutError) {
    const message = `the auxiliary model gave no answer within ${client.openai.timeout} ms`;
    return new AuxError({ code: "timeout", message, cause: error });
  }
  if (error instanceof APIConnectionError) {
    const message = `cannot reach the auxiliary model at ${client.openai.baseURL}: ${rootMessageOf(error)}`;
    return new AuxError({ code: "connection", message, cause: error });
  }
  const status = error instanceof APIError ? error.status : undefined;
  if (everyFormatRejected) {
    const message = `the endpoint rejected every response format: ${rejections.join("; ")}`;
    return new AuxError({ code: "unsupported-format", message, status, cause: error });
  }
  return new AuxError({ code: "http", message: `the auxiliary model failed: ${messageOf(error)}`, status, cause: error });
}

type ReplyOutcome<T> =
  | { ok: true; value: T }
  /** `correction` is the user message that states the problem for the one retry. */
  | { ok: false; error: AuxError; content: string; correction: string };

function readReply<S extends z.ZodType>(completion: z.output<typeof CompletionSchema>, schema: S): ReplyOutcome<z.output<S>> {
  const choice = completion.choices[0];
  const content = choice?.message?.content ?? "";
  const fail = (code: "blank" | "length" | "not-json" | "schema", message: string, correction: string) => ({
    ok: false as const,
    error: new AuxError({ code, message }),
    content,
    correction,
  });
  if (choice?.finish_reason === "length") {
    return fail("length", "the reply was cut off (finish_reason: length)", "Your reply was cut off; reply with a shorter JSON object.");
  }
  if (content.trim() === "") {
    return fail("blank", "the reply was blank", "Your reply was empty. Reply with one JSON object matching the JSON Schema.");
  }
  const parsed = parseJsonText(content);
  if (!parsed.ok) {
    return fail(
      "not-json",
      `the reply is not JSON: ${parsed.reason}`,
      `Your reply is not valid JSON (${parsed.reason}). Reply with only one JSON object matching the JSON Schema, and no other text.`,
    );
  }
  const checked = schema.safeParse(parsed.value);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `- ${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`);
    return fail(
      "schema",
      `the reply does not match the schema:\n${issues.join("\n")}`,
      `Your JSON object does not match the JSON Schema:\n${issues.join("\n")}\nReply with one corrected JSON object.`,
    );
  }
  return { ok: true, value: checked.data };
}

/**
 * The JSON value in a model's reply: the whole reply, or the inside of a Markdown code fence,
 * or the text from the first `{` to the last `}` when prose surrounds the object. A leading
 * `<think>` block (reasoning models) is dropped.
 */
function parseJsonText(content: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const text = content.replace(/^\s*<think>[\s\S]*?<\/think>/, "").trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(text);
  const candidate = fenced?.[1]?.trim() ?? text;
  const whole = tryParse(candidate);
  if (whole.ok) return whole;
  const start = candidate.indexOf("{");
  const end = candidate.lastIndexOf("}");
  if (start >= 0 && end > start && (start > 0 || end < candidate.length - 1)) {
    const inner = tryParse(candidate.slice(start, end + 1));
    if (inner.ok) return inner;
  }
  return whole;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

/** The innermost cause's message ("connect ECONNREFUSED ..." rather than "fetch failed"). */
function rootMessageOf(error: unknown): string {
  let innermost = error;
  for (let depth = 0; depth < 5 && innermost instanceof Error && innermost.cause !== undefined; depth += 1) {
    innermost = innermost.cause;
  }
  return messageOf(innermost);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
