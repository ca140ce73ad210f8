import { LOG_TAG, type Logger, type LogLevel } from "../../../sessions/logger.js";

/**
 * OpenCode 2.0.15 gives a server plug-in no log call: lines go to the server's stderr (its
 * terminal for `opencode serve`, the service's log otherwise), one per call,
 * `opencode-rcm <level> <message> {extra as JSON}`. Debug lines only with the `debug` option
 * or OPENCODE_RCM_DEBUG=1. A failing write is swallowed.
 */
export function stderrLogger(options: { debug: () => boolean; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  return {
    async log(level: LogLevel, message, extra) {
      if (level === "debug" && !options.debug()) return;
      try {
        const tail = extra && Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : "";
        write(`${LOG_TAG.service} ${level} ${message}${tail}\n`);
      } catch {
        // Logging must never be the reason a turn fails.
      }
    },
  };
}
