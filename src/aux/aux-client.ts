import OpenAI from "openai";

/** How the reply is constrained to JSON, strongest first. */
export type AuxFormat = "json_schema" | "json_object" | "text";

/** An OpenAI-compatible endpoint plus the model to ask and what the endpoint is known to accept. */
export interface AuxClient {
  readonly openai: OpenAI;
  readonly model: string;
  readonly maxTokens: number | undefined;
  /** The strongest response format the endpoint is known to accept; calls start here. */
  readonly format: AuxFormat;
  /** Records the format the endpoint accepted, so later calls start at it. */
  rememberFormat(format: AuxFormat): void;
}

export interface AuxClientOptions {
  /** e.g. `https://api.deepseek.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  model: string;
  /** Empty or missing for endpoints without authentication (Ollama, llama.cpp, vLLM). */
  apiKey?: string | undefined;
  /** Per HTTP call; 20 s by default. */
  timeoutMs?: number | undefined;
  /** Sent as `max_tokens` when set. */
  maxTokens?: number | undefined;
}

/** A client for the auxiliary model. It never retries on its own: `completeJson` decides. */
export function createAuxClient(options: AuxClientOptions): AuxClient {
  const { baseURL, model, apiKey, timeoutMs = 20_000, maxTokens } = options;
  const openai = new OpenAI({ baseURL, apiKey: apiKey || "none", timeout: timeoutMs, maxRetries: 0 });
  let format: AuxFormat = "json_schema";
  return {
    openai,
    model,
    maxTokens,
    get format() {
      return format;
    },
    rememberFormat(accepted) {
      format = accepted;
    },
  };
}
