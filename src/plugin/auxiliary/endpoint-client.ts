import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { z } from "zod";
import { messageOf, rootMessageOf } from "../../kit/errors/message-of.js";
import { type AuxChatRequest, type AuxClient, type AuxFormat, FormatRejection } from "./aux-client.js";
import { AuxError } from "./aux-error.js";
import { createAuxHealth } from "./aux-health.js";

export interface EndpointClientOptions {
  /** e.g. `https://api.deepseek.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  model: string;
  /** Empty or missing for endpoints without authentication (Ollama, llama.cpp, vLLM). */
  apiKey?: string | undefined;
  /** Per HTTP call (the aux.timeoutMs option). */
  timeoutMs: number;
  /** Sent as `max_tokens` when set. */
  maxTokens?: number | undefined;
  /** Pause after repeated failures or a timeout (the aux.cooldownMs option); 0 never pauses. */
  cooldownMs: number;
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

/** The auxiliary model at an OpenAI-compatible endpoint, through the `openai` package's Chat Completions. */
export function createAuxClient(options: EndpointClientOptions): AuxClient {
  const { baseURL, model, apiKey, timeoutMs, maxTokens, cooldownMs } = options;
  const openai = new OpenAI({ baseURL, apiKey: apiKey || "none", timeout: timeoutMs, maxRetries: 0 });
  let format: AuxFormat = "json_schema";
  return {
    label: `${baseURL} (model ${model})`,
    timeoutMs,
    get format() {
      return format;
    },
    rememberFormat(accepted) {
      format = accepted;
    },
    health: createAuxHealth({ cooldownMs }),
    async send(request) {
      let response: unknown;
      try {
        response = await openai.chat.completions.create(completionRequest({ model, maxTokens, request }));
      } catch (error) {
        if (isFormatRejection(error)) throw new FormatRejection(request.format, messageOf(error), (error as APIError).status, { cause: error });
        throw callError(error, { baseURL, timeoutMs });
      }
      const completion = CompletionSchema.safeParse(response);
      if (!completion.success) {
        const message = `the endpoint's response is not a chat completion: ${completion.error.issues[0]?.message ?? "bad shape"}`;
        throw new AuxError({ code: "http", message });
      }
      const choice = completion.data.choices[0];
      return {
        content: choice?.message?.content ?? "",
        finishReason: choice?.finish_reason ?? undefined,
        inputTokens: completion.data.usage?.prompt_tokens ?? 0,
        outputTokens: completion.data.usage?.completion_tokens ?? 0,
      };
    },
  };
}

function completionRequest(options: { model: string; maxTokens: number | undefined; request: AuxChatRequest }): ChatCompletionCreateParamsNonStreaming {
  const { model, maxTokens, request } = options;
  const body: ChatCompletionCreateParamsNonStreaming = { model, messages: request.messages, stream: false };
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  if (request.format === "json_schema") {
    // OpenAI allows letters, digits, `_` and `-`, at most 64 characters.
    const schemaName = request.name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "reply";
    body.response_format = { type: "json_schema", json_schema: { name: schemaName, schema: request.jsonSchema, strict: false } };
  } else if (request.format === "json_object") {
    body.response_format = { type: "json_object" };
  }
  return body;
}

function isFormatRejection(error: unknown): boolean {
  if (!(error instanceof APIError) || error instanceof APIConnectionError || error.status === undefined) return false;
  return REJECTION_STATUSES.has(error.status) || /response_format|json_schema|json_object/i.test(error.message);
}

function callError(error: unknown, endpoint: { baseURL: string; timeoutMs: number }): AuxError {
  if (error instanceof APIConnectionTimeoutError) {
    return new AuxError({ code: "timeout", message: `the auxiliary model gave no answer within ${endpoint.timeoutMs} ms`, cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new AuxError({ code: "connection", message: `cannot reach the auxiliary model at ${endpoint.baseURL}: ${rootMessageOf(error)}`, cause: error });
  }
  const status = error instanceof APIError ? error.status : undefined;
  return new AuxError({ code: "http", message: `the auxiliary model failed: ${messageOf(error)}`, status, cause: error });
}
