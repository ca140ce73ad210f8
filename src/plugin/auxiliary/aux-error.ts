/** Why an auxiliary-model call produced no usable value. */
export type AuxErrorCode =
  /** The endpoint could not be reached (refused, reset, DNS). */
  | "connection"
  /** No answer within the client's `timeoutMs`. */
  | "timeout"
  /** The endpoint answered with an HTTP error (or a response that is not a chat completion). */
  | "http"
  /** The reply had no content. */
  | "blank"
  /** The reply was cut off (`finish_reason: "length"`). */
  | "length"
  /** The reply held no parseable JSON. */
  | "not-json"
  /** The JSON did not match the expected schema. */
  | "schema"
  /** The endpoint rejected every response format (json_schema, json_object, plain text). */
  | "unsupported-format"
  /** Not called: the source failed or hung recently and is paused (`aux.cooldownMs`). */
  | "cooling-down";

/** A failed auxiliary-model call, with what is known about it. */
export class AuxError extends Error {
  readonly code: AuxErrorCode;
  /** HTTP status, when the endpoint answered with one. */
  readonly status?: number;

  constructor(options: { code: AuxErrorCode; message: string; status?: number | undefined; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AuxError";
    this.code = options.code;
    if (options.status !== undefined) this.status = options.status;
  }
}
