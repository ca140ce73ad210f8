import type { PluginInput } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import { describeProblem, type OptionProblem } from "../../../config/option-problem.js";
import { clip } from "../../../core/clip.js";
import { taskName } from "../../../core/memory/task-name.js";
import type { Ledger, LedgerEntry, LedgerTask } from "../../../core/routing/ledger.js";
import { isConfident } from "../../../core/routing/ledger.js";
import { problemsToastMessage, problemsToastTitle, TOAST_TEXT_WIDTH } from "../../../session-views/config-problems.js";
import { surePercent, thresholdPercent } from "../../../session-views/words.js";
import type { Logger } from "../../../sessions/logger.js";

/** A task title's share of a toast's line. */
const TOAST_TITLE_CHARS = 40;

export type ToastVariant = "info" | "success" | "warning" | "error";

export interface Toast {
  title: string;
  message: string;
  variant: ToastVariant;
}

/** What a routing decision is worth telling the user, if anything: a new task, a switch, a fallback that changed what the model gets. */
export function routingToast(options: {
  entry: LedgerEntry;
  task: LedgerTask;
  previous: string | undefined;
  threshold: number;
  /** The session's routing with this decision in it: which tasks have history the fallback keeps. */
  ledger: Ledger;
  /** With `fallback: "candidates"`, the tasks an unsure decision keeps (the rest are left out). */
  kept?: readonly string[] | undefined;
  /** How the user moves the request if the guess is wrong: "/rcm move" in the TUI, "/rcm-text move" elsewhere. */
  moveCommand?: string;
}): Toast | undefined {
  const { entry, task, previous, threshold, ledger, kept, moveCommand = "/rcm move" } = options;
  // Numbers lead their line and titles are clipped: a toast never wraps inside a figure.
  const title = clip(taskName(task.title), TOAST_TITLE_CHARS);
  const sure = surePercent(entry.confidence, threshold);
  if (entry.shared) return undefined;
  if (!isConfident(entry, threshold)) {
    if (!fallbackChangesView({ ledger, kept })) return undefined;
    const others = historyTasks(ledger).filter((id) => id !== task.id);
    const to = others.length === 1 ? `${others[0]}` : "<task>";
    return {
      title: kept ? `RCM: unsure, kept ${kept.join(", ")}` : "RCM: full history",
      message: `${sure} sure, under ${thresholdPercent(threshold)}. Best guess ${task.id}: "${title}"\nNot ${task.id}? ${moveCommand} ${to} (or new)`,
      variant: "warning",
    };
  }
  // The session's first task is no news.
  if (entry.opened && previous !== undefined) return { title: `RCM: new task ${task.id}`, message: `${sure} sure: "${title}"`, variant: "info" };
  if (!entry.opened && previous !== undefined && previous !== task.id) {
    return { title: `RCM: switched to ${task.id}`, message: `${sure} sure: "${title}"`, variant: "info" };
  }
  return undefined;
}

/**
 * Whether an unsure decision's fallback gives the model anything other than what a sure one
 * would: only when more than one task has history (with one, the full history is that task's),
 * and, keeping candidates, only when they leave a task with history out.
 */
export function fallbackChangesView(options: { ledger: Ledger; kept?: readonly string[] | undefined }): boolean {
  const tasks = historyTasks(options.ledger);
  if (tasks.length < 2) return false;
  const { kept } = options;
  return kept === undefined || tasks.some((id) => !kept.includes(id));
}

/** The tasks that have at least one routed request, in opening order. */
function historyTasks(ledger: Ledger): string[] {
  const routed = new Set(ledger.order.map((messageID) => ledger.decisions[messageID]?.task));
  return ledger.tasks.filter((task) => routed.has(task.id)).map((task) => task.id);
}

/** Shows toasts in the TUI; a failure (no TUI attached, old server) is logged at debug level only. */
export function createToaster(client: PluginInput["client"], logger: Logger, enabled: boolean) {
  return async (toast: Toast, duration = 4000): Promise<void> => {
    if (!enabled) return;
    try {
      await client.tui.showToast({ body: { ...toast, duration } });
    } catch (error) {
      await logger.log("debug", `toast not shown: ${messageOf(error)}`);
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
  // Not awaited: the toast route waits for this instance, whose start-up waits for the plug-in.
  void createToaster(
    client,
    logger,
    true,
  )(
    {
      title: problemsToastTitle(problems.length),
      message: problemsToastMessage({ problems: problems.map(describeProblem), width: TOAST_TEXT_WIDTH }),
      variant: "warning",
    },
    10_000,
  );
}

/**
 * The terminal OpenCode runs in, when no TUI draws on it: `opencode run`, `serve` and `web`
 * (argv[2] is the subcommand; the TUI's server part runs in a worker with none).
 */
export function plainTerminal(argv: readonly string[]): ((text: string) => void) | undefined {
  const subcommand = argv[2];
  return subcommand === "run" || subcommand === "serve" || subcommand === "web" ? (text) => void process.stderr.write(text) : undefined;
}
