import { type InteractionGroup, toInteractionGroups } from "../interaction-groups.js";
import type { MessageWithParts } from "../messages.js";
import { type GroupTask, groupTasks } from "../routing/group-tasks.js";
import type { Ledger, LedgerEntry } from "../routing/ledger.js";
import { isConfident, lastRouted } from "../routing/ledger.js";

/**
 * One model call as the plug-in sees it, built once per call: the messages OpenCode is
 * about to send, their interaction groups, where each group belongs, and the request the
 * call answers with its routing decision. Every step of the context pipeline reads it.
 */
export interface CallView {
  messages: readonly MessageWithParts[];
  groups: readonly InteractionGroup[];
  /** Where each group belongs, in `groups` order. */
  tasks: readonly GroupTask[];
  current: CurrentRequest;
}

/**
 * The request a call answers: the latest request in view, with its decision if it was routed.
 * `inView` is false after a compaction that left no request in view: OpenCode's synthetic
 * "Continue" goes on with the session's last routed request, which the ledger still knows.
 */
type CurrentRequest = { kind: "routed"; requestID: string; position: number; entry: LedgerEntry; inView: boolean } | { kind: "none"; reason: string };

/** The current request's task, when the call may be narrowed to it: routed confidently, not shared. */
export type ActiveTask =
  | { kind: "task"; requestID: string; position: number; task: string; entry: LedgerEntry; inView: boolean }
  | { kind: "none"; reason: string };

/**
 * `groups` and `tasks`, when the caller has them already: the messages' groups, and where each
 * belongs under this `ledger` (routing resolves them as it learns from the call).
 */
export function buildCallView(options: {
  messages: readonly MessageWithParts[];
  ledger: Ledger;
  groups?: readonly InteractionGroup[];
  tasks?: readonly GroupTask[] | undefined;
}): CallView {
  const { messages, ledger } = options;
  const groups = options.groups ?? toInteractionGroups(messages);
  const tasks = options.tasks ?? groupTasks(groups, ledger);
  return { messages, groups, tasks, current: currentRequest(groups, ledger) };
}

function currentRequest(groups: readonly InteractionGroup[], ledger: Ledger): CurrentRequest {
  const position = groups.findLastIndex((group) => group.kind === "request");
  const request = groups[position];
  if (request) {
    const entry = ledger.decisions[request.id];
    if (!entry) return { kind: "none", reason: "current request not routed" };
    return { kind: "routed", requestID: request.id, position, entry, inView: true };
  }
  const last = lastRouted(ledger);
  if (groups.length === 0 || last === undefined) return { kind: "none", reason: "no user request in view" };
  return { kind: "routed", requestID: last.messageID, position: -1, entry: last.entry, inView: false };
}

/** The one definition of "the current task" that routing and memory narrow the context to. */
export function activeTask(view: Pick<CallView, "current">, threshold: number): ActiveTask {
  const { current } = view;
  if (current.kind === "none") return current;
  const { entry } = current;
  if (!isConfident(entry, threshold)) return { kind: "none", reason: `confidence ${entry.confidence} below ${threshold}` };
  if (entry.shared) return { kind: "none", reason: "shared instruction" };
  return { kind: "task", requestID: current.requestID, position: current.position, task: entry.task, entry, inView: current.inView };
}
