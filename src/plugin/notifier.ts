import type { PluginInput } from "@opencode-ai/plugin";
import { describeProblem, type OptionProblem } from "../config/option-problem.js";
import type { LedgerEntry, LedgerTask } from "../core/routing/ledger.js";
import { isConfident } from "../core/routing/ledger.js";
import { clip, percent } from "../session-views/words.js";
import type { Logger } from "./sessions/logger.js";

/** A task title's share of a toast's line. */
const TOAST_TITLE_CHARS = 40;

export type ToastVariant = "info" | "success" | "warning" | "error";

export interface Toast {
  title: string;
  message: string;
  variant: ToastVariant;
}

/** What a routing decision is worth telling the user, if anything: a new task, a switch, a fallback. */
export function routingToast(options: {
  entry: LedgerEntry;
  task: LedgerTask;
  previous: string | undefined;
  threshold: number;
  /** With `fallback: "candidates"`, the tasks an unsure decision keeps (the rest are left out). */
  kept?: readonly string[] | undefined;
}): Toast | undefined {
  const { entry, task, previous, threshold, kept } = options;
  // Numbers lead their line and titles are clipped: a toast never wraps inside a figure.
  const title = clip(task.title, TOAST_TITLE_CHARS);
  if (entry.shared) return undefined;
  if (!isConfident(entry, threshold)) {
    return { title: kept ? `RCM: unsure, kept ${kept.join(", ")}` : "RCM: full history", message: `${percent(entry.confidence)} sure, under ${percent(threshold)}. Best guess ${task.id}: "${title}"`, variant: "warning" };
  }
  // The session's first task is no news.
  if (entry.opened && previous !== undefined) return { title: `RCM: new task ${task.id}`, message: `${percent(entry.confidence)} sure: "${title}"`, variant: "info" };
  if (!entry.opened && previous !== undefined && previous !== task.id) {
    return { title: `RCM: switched to ${task.id}`, message: `${percent(entry.confidence)} sure: "${title}"`, variant: "info" };
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

/**
 * Options problems, loud at start-up: each in the log, and one toast for all (whatever
 * `notify` says: a bad key falls back alone and the rest works, which the user must know).
 */
export async function announceProblems(
  problems: readonly OptionProblem[],
  client: PluginInput["client"],
  logger: Logger,
  /** Where a terminal reads them too (`opencode run`, `serve`, `web`: no TUI to show a toast). */
  terminal?: (text: string) => void,
): Promise<void> {
  for (const problem of problems) await logger.log("warn", describeProblem(problem), { key: problem.key });
  if (problems.length === 0) return;
  terminal?.(problems.map((problem) => `opencode-rcm: config problem: ${describeProblem(problem)}\n`).join(""));
  const shown = problems.slice(0, 3).map(describeProblem).join("\n");
  const more = problems.length > 3 ? `\n(+${problems.length - 3} more in the log)` : "";
  // Not awaited: the toast route waits for this instance, whose start-up waits for the plug-in.
  void createToaster(client, logger, true)({ title: "opencode-rcm: config problem", message: shown + more, variant: "warning" }, 10_000);
}


/**
 * The terminal OpenCode runs in, when no TUI draws on it: `opencode run`, `serve` and `web`
 * (argv[2] is the subcommand; the TUI's server part runs in a worker with none).
 */
export function plainTerminal(argv: readonly string[]): ((text: string) => void) | undefined {
  const subcommand = argv[2];
  return subcommand === "run" || subcommand === "serve" || subcommand === "web" ? (text) => void process.stderr.write(text) : undefined;
}
