export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, extra?: Record<string, unknown>): Promise<void>;
}

/** The tag on every line (OpenCode 1.18 drops `service` but writes `extra` as `key=value`). */
export const LOG_TAG = { service: "opencode-rcm" } as const;
