import type { PluginInput } from "@opencode-ai/plugin";
import type { LedgerEntry, LedgerTask } from "../core/routing/ledger.js";
import type { Logger } from "./logger.js";

export type ToastVariant = "info" | "success" | "warning" | "error";

export interface Toast {
  title: string;
  message: string;
  variant: ToastVariant;
}

/** What a routing decision is worth telling the user, if anything: a new task, a switch, a fallback. */
export function routingToast(options: { entry: LedgerEntry; task: LedgerTask; previous: string | undefined; threshold: number }): Toast | undefined {
  const { entry, task, previous, threshold } = options;
  const title = clip(task.title, 60);
  if (entry.shared) return undefined;
  if (entry.confidence < threshold) {
    return { title: "RCM: full history", message: `Unsure which task (best ${task.id} "${title}", ${entry.confidence} < ${threshold})`, variant: "warning" };
  }
  // The session's first task is no news.
  if (entry.opened && previous !== undefined) return { title: `RCM: new task ${task.id}`, message: `"${title}" (confidence ${entry.confidence})`, variant: "info" };
  if (!entry.opened && previous !== undefined && previous !== task.id) {
    return { title: `RCM: switched to ${task.id}`, message: `"${title}" (confidence ${entry.confidence})`, variant: "info" };
  }
  return undefined;
}

/** Shows toasts in the TUI; a failure (no TUI attached, old server) is logged at debug level only. */
export function createToaster(client: PluginInput["client"], logger: Logger, enabled: boolean) {
  return async (toast: Toast, duration = 4000): Promise<void> => {
    if (!enabled) return;
    try {
      await client.tui.showToast({ body: { ...toast, duration } });
    } catch (error) {
      await logger.log("debug", `toast not shown: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
