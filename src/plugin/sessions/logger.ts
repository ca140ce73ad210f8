import type { PluginInput } from "@opencode-ai/plugin";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, extra?: Record<string, unknown>): Promise<void>;
}

/** The tag on every line: OpenCode 1.18 drops `service` but writes `extra` as `key=value`. */
export const LOG_TAG = { service: "opencode-rcm" } as const;

/**
 * Logs through OpenCode's own log (`client.app.log`), into its log file
 * (`$XDG_DATA_HOME/opencode/log/opencode.log`) as `... message=... service=opencode-rcm ...`;
 * debug lines appear only with `--log-level DEBUG`. A failing log call is swallowed.
 */
export function createLogger(client: PluginInput["client"]): Logger {
  return {
    async log(level, message, extra) {
      try {
        await client.app.log({ body: { service: LOG_TAG.service, level, message, extra: { ...LOG_TAG, ...extra } } });
      } catch {
        // Logging must never be the reason a turn fails.
      }
    },
  };
}
