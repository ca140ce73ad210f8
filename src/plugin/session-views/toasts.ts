import { describeProblem, type OptionProblem } from "../config/option-problem.js";
import { clip } from "../core/clip.js";
import { taskName } from "../core/memory/task-name.js";
import type { Ledger, LedgerEntry, LedgerTask } from "../core/routing/ledger.js";
import { isConfident } from "../core/routing/ledger.js";
import type { ResumeOffer } from "../store/session-state-file.js";
import { problemsToastMessage, problemsToastTitle, TOAST_TEXT_WIDTH } from "./config-problems.js";
import { sessionName } from "./earlier-tasks.js";
import { agoText, surePercent, thresholdPercent } from "./words.js";

/** A task title's share of a toast's line. */
const TOAST_TITLE_CHARS = 40;

type ToastVariant = "info" | "success" | "warning" | "error";

export interface Toast {
  title: string;
  message: string;
  variant: ToastVariant;
}

/**
 * The toast for a routed request: a resumption of an earlier session's task (the request
 * opened it here), an offer of one (the request pointed to it, not surely), else what
 * `routingToast` says of the decision.
 */
export function requestToast(
  options: Parameters<typeof routingToast>[0] & {
    messageID: string;
    /** The resumption the request offered (the state's `resumeOffer`, when it is this request's). */
    offer?: ResumeOffer | undefined;
    /** "/rcm resume" in the TUI, "/rcm-text resume" elsewhere. */
    resumeCommand?: string;
    now?: Date;
  },
): Toast | undefined {
  const { offer, task, messageID, resumeCommand = "/rcm resume" } = options;
  if (offer && offer.messageID === messageID) return offerToast(offer, resumeCommand);
  const from = task.resumed;
  if (from && task.openedBy === messageID) {
    const title = clip(taskName(task.title), TOAST_TITLE_CHARS);
    const age = agoText(new Date(from.lastActive), options.now ?? new Date());
    return {
      title: `RCM: resumed ${task.id}`,
      message: `Resumed ${task.id} "${title}" from ${sessionName(from.sessionTitle, from.session)} (${age}): its record goes with this request`,
      variant: "info",
    };
  }
  return routingToast(options);
}

/** The latest request pointed to an earlier session's task, not surely: nothing came in; the person is asked. */
export function offerToast(offer: ResumeOffer, resumeCommand = "/rcm resume"): Toast {
  return {
    title: `RCM: resume "${clip(taskName(offer.title), TOAST_TITLE_CHARS)}"?`,
    message: `Resume ${offer.task} of ${sessionName(offer.sessionTitle, offer.session)}? ${resumeCommand} ${offer.task}`,
    variant: "info",
  };
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
    const head = kept ? `RCM: unsure, kept ${kept.join(", ")}` : "RCM: full history";
    // The request opened the task it is guessed to: the doubt is whether it is new at all.
    if (entry.opened)
      return {
        title: head,
        message: `${sure} sure it is new, under ${thresholdPercent(threshold)}: opened ${task.id} "${title}"\nPart of an earlier task? ${moveCommand} ${to}`,
        variant: "warning",
      };
    return {
      title: head,
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

/** The one toast for every options problem at start-up. */
export function problemsToast(problems: readonly OptionProblem[]): Toast {
  return {
    title: problemsToastTitle(problems.length),
    message: problemsToastMessage({ problems: problems.map(describeProblem), width: TOAST_TEXT_WIDTH }),
    variant: "warning",
  };
}
