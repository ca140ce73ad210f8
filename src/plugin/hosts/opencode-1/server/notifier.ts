import type { PluginInput } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import type { Toast } from "../../../session-views/toasts.js";
import type { Logger } from "../../../sessions/logger.js";

/** Shows toasts in the TUI (whether to is decided above: `notify` in handlers/rcm.ts); a failure (no TUI attached, old server) is logged at debug level only. */
export function createToaster(client: PluginInput["client"], logger: Logger) {
  return async (toast: Toast, duration = 4000): Promise<void> => {
    try {
      await client.tui.showToast({ body: { ...toast, duration } });
    } catch (error) {
      await logger.log("debug", `toast not shown: ${messageOf(error)}`);
    }
  };
}

/**
 * The terminal OpenCode runs in, when no TUI draws on it: `opencode run`, `serve` and `web`
 * (argv[2] is the subcommand; the TUI's server part runs in a worker with none).
 */
export function plainTerminal(argv: readonly string[]): ((text: string) => void) | undefined {
  const subcommand = argv[2];
  return subcommand === "run" || subcommand === "serve" || subcommand === "web" ? (text) => void process.stderr.write(text) : undefined;
}
