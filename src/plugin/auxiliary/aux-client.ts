import type { AuxHealth } from "./aux-health.js";

/** How the reply is constrained to JSON, strongest first. */
export type AuxFormat = "json_schema" | "json_object" | "text";

export interface AuxChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** One call to the auxiliary model. */
export interface AuxChatRequest {
  messages: AuxChatMessage[];
  format: AuxFormat;
  /** Names the schema in `json_schema` mode. */
  name: string;
  jsonSchema: Record<string, unknown>;
  /** The OpenCode session the call is made for (the OpenCode source needs it; endpoints ignore it). */
  sessionID?: string | undefined;
}

export interface AuxChatReply {
  content: string;
  /** `length` when the reply was cut off. */
  finishReason?: string | undefined;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The auxiliary model behind one interface, whatever serves it: an OpenAI-compatible
 * endpoint, or the user's own models through OpenCode. `send` throws an `AuxError` (or a
 * `FormatRejection`) and never retries on its own: `completeJson` decides.
 */
export interface AuxClient {
  /** Where calls go, for messages: the endpoint and model, or the OpenCode model. */
  readonly label: string;
  readonly timeoutMs: number;
  /** The strongest response format the source is known to accept; calls start here. */
  readonly format: AuxFormat;
  /** Records the format the source accepted, so later calls start at it. */
  rememberFormat(format: AuxFormat): void;
  send(request: AuxChatRequest): Promise<AuxChatReply>;
  /** Shared by every user of this client: a source that keeps failing or hanging cools down. */
  readonly health: AuxHealth;
}

/** The source turned down the requested response format; the next weaker one may work. */
export class FormatRejection extends Error {
  override name = "FormatRejection";
  constructor(
    readonly format: AuxFormat,
    message: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
