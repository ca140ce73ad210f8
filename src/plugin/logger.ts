import type { PluginInput } from "@opencode-ai/plugin";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, extra?: Record<string, unknown>): Promise<void>;
}

/** Logs through OpenCode's own log (`client.app.log`); a failing log call is swallowed. */
export function createLogger(client: PluginInput["client"]): Logger {
  return {
    async log(level, message, extra) {
      try {
        await client.app.log({ body: { service: "opencode-rcm", level, message, ...(extra ? { extra } : {}) } });
      } catch {
        // Logging must never be the reason a turn fails.
      }
    },
  };
}
