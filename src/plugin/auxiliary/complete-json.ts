import { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";
import { type AuxChatMessage, type AuxChatReply, type AuxClient, type AuxFormat, FormatRejection } from "./aux-client.js";
import { AuxError } from "./aux-error.js";
import { redactSecretsInAll } from "./redact-lazily.js";

/** What one `completeJson` cost, summed over every HTTP call it made. */
interface AuxUsage {
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
  /** The OpenCode session the call is made for. */
  sessionID?: string | undefined;
}

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
  const paused = options.client.health.check();
  if (paused) return { ok: false, error: paused, usage };
  let outcome: { ok: true; value: z.output<S> } | { ok: false; error: AuxError };
  try {
    outcome = await converse(options, usage);
  } catch (error) {
    const message = `auxiliary model call failed unexpectedly: ${messageOf(error)}`;
    outcome = { ok: false, error: new AuxError({ code: "http", message, cause: error }) };
  }
  options.client.health.record(outcome.ok ? { ok: true } : { ok: false, code: outcome.error.code });
  usage.ms = Math.round(performance.now() - started);
  return { ...outcome, usage };
}

async function converse<S extends z.ZodType>(
  options: CompleteJsonOptions<S>,
  usage: AuxUsage,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; error: AuxError }> {
  const { client, name, schema, system, user, sessionID } = options;
  const jsonSchema = jsonSchemaOf(schema);
  const messages: AuxChatMessage[] = [
    { role: "system", content: `${system}\n\nReply with one JSON object matching this JSON Schema:\n${JSON.stringify(jsonSchema)}` },
    { role: "user", content: user },
  ];
  let format = client.format;
  const rejections: string[] = [];
  let retried = false;
  for (;;) {
    usage.calls += 1;
    usage.format = format;
    let reply: AuxChatReply;
    try {
      // Every request to the auxiliary model is built here, so this is where secrets are removed:
      // from the prompts, and from the model's own reply and the correction sent back on a retry.
      const contents = await redactSecretsInAll(messages.map((message) => message.content));
      const redacted = messages.map((message, index) => ({ ...message, content: contents[index] ?? "" }));
      reply = await client.send({ messages: redacted, format, name, jsonSchema, sessionID });
    } catch (error) {
      if (error instanceof AuxError) return { ok: false, error };
      if (!(error instanceof FormatRejection)) throw error;
      rejections.push(`${format} (${error.message})`);
      const next = NEXT_FORMAT[format];
      if (next !== undefined) {
        format = next;
        continue;
      }
      // Fell back at least once and the last format (plain text) was turned down as well.
      if (rejections.length > 1) {
        const message = `the endpoint rejected every response format: ${rejections.join("; ")}`;
        return { ok: false, error: new AuxError({ code: "unsupported-format", message, status: error.status, cause: error }) };
      }
      return { ok: false, error: new AuxError({ code: "http", message: `the auxiliary model failed: ${error.message}`, status: error.status, cause: error }) };
    }
    client.rememberFormat(format);
    usage.inputTokens += reply.inputTokens;
    usage.outputTokens += reply.outputTokens;

    const outcome = readReply(reply, schema);
    if (outcome.ok) return outcome;
    if (retried) return { ok: false, error: outcome.error };
    retried = true;
    if (outcome.content.trim() !== "") messages.push({ role: "assistant", content: outcome.content });
    messages.push({ role: "user", content: outcome.correction });
  }
}

/** The JSON Schema of what the model must write (the schema's input side), without `$schema`. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

type ReplyOutcome<T> =
  | { ok: true; value: T }
  /** `correction` is the user message that states the problem for the one retry. */
  | { ok: false; error: AuxError; content: string; correction: string };

function readReply<S extends z.ZodType>(reply: AuxChatReply, schema: S): ReplyOutcome<z.output<S>> {
  const { content } = reply;
  const fail = (code: "blank" | "length" | "not-json" | "schema", message: string, correction: string) => ({
    ok: false as const,
    error: new AuxError({ code, message }),
    content,
    correction,
  });
  if (reply.finishReason === "length") {
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
