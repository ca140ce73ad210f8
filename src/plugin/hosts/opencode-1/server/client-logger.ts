import type { PluginInput } from "@opencode-ai/plugin";
import { LOG_TAG, type Logger } from "../../../sessions/logger.js";

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
