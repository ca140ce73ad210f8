import { appendFile, mkdir, rename, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { LOG_TAG, type Logger, type LogLevel } from "../../../sessions/logger.js";

/** Past this size the log file is moved to `<file>.1` (one old file kept) before the next line. */
const LOG_FILE_BYTES = 5 * 1024 * 1024;

/**
 * OpenCode 2.0.15 gives a server plug-in no log call: each line goes to the server's stderr (the
 * terminal of `opencode serve`) and to `file` (a TUI's server keeps no plug-in's stderr), as
 * `<ISO time> opencode-rcm <level> <message> {extra as JSON}`. Debug lines only with the `debug`
 * option or OPENCODE_RCM_DEBUG=1. A failing write is swallowed.
 */
export function serverLogger(options: { debug: () => boolean; file: string; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  let queue: Promise<void> = Promise.resolve();
  let checked = false;
  const toFile = async (line: string): Promise<void> => {
    if (!checked) {
      checked = true;
      await mkdir(dirname(options.file), { recursive: true });
      const size = await stat(options.file).then(
        (info) => info.size,
        () => 0,
      );
      if (size > LOG_FILE_BYTES) await rename(options.file, `${options.file}.1`);
    }
    await appendFile(options.file, line, "utf8");
  };
  return {
    async log(level: LogLevel, message, extra) {
      if (level === "debug" && !options.debug()) return;
      try {
        const tail = extra && Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : "";
        const line = `${LOG_TAG.service} ${level} ${message}${tail}\n`;
        write(line);
        queue = queue.then(() => toFile(`${new Date().toISOString()} ${line}`)).catch(() => undefined);
        await queue;
      } catch {
        // Logging must never be the reason a turn fails.
      }
    },
  };
}
