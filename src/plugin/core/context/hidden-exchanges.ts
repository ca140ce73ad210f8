import { groupRequestID, type InteractionGroup, toInteractionGroups } from "../interaction-groups.js";
import { digestGroups, type GroupDigest } from "../memory/group-digest.js";
import type { MessageWithParts } from "../messages.js";
import { groupTasks } from "../routing/group-tasks.js";
import type { Ledger, LedgerTask } from "../routing/ledger.js";
import type { CallReport } from "./call-report.js";

/** One of a task's exchanges, numbered among all of the task's (1 is its first). */
export interface NumberedExchange {
  number: number;
  digest: GroupDigest;
}

/** What `rcm_recall` found for a task: an unknown id, the task already in view, or its hidden exchanges. */
export type HiddenExchanges =
  | { kind: "unknown"; tasks: readonly LedgerTask[] }
  | { kind: "current"; task: LedgerTask }
  | {
      kind: "found";
      task: LedgerTask;
      /** The request the call answers (its ledger id), when the ledger knows it. */
      requestID: string | undefined;
      /** Every exchange the task has in the stored history. */
      total: number;
      /** Those the call did not show, newest first. */
      hidden: NumberedExchange[];
    };

/**
 * A task's exchanges that the model call making a tool call did not show. `messages` is the
 * whole stored history; `messageID` the assistant message that made the call. The call showed
 * the task's exchanges only when its report (`lastCall`, for the same request) kept or replaced
 * some of them, and then only those after the newest compaction; otherwise routing left all of
 * them out. Pure.
 */
export function hiddenExchanges(options: {
  messages: readonly MessageWithParts[];
  ledger: Ledger;
  messageID: string;
  task: string;
  lastCall?: CallReport | undefined;
}): HiddenExchanges {
  const { messages, ledger, messageID, lastCall } = options;
  const task = ledger.tasks.find((known) => known.id === options.task);
  if (!task) return { kind: "unknown", tasks: ledger.tasks };
  const groups = toInteractionGroups(messages);
  const requestID = answeredRequest(messages, groups, ledger, messageID);
  const answering = requestID === undefined ? undefined : ledger.decisions[requestID]?.task;
  if (answering === task.id) return { kind: "current", task };
  const tasks = groupTasks(groups, ledger);
  const own = groups.flatMap((group, position) => {
    const where = tasks[position];
    return where?.kind === "task" && where.task === task.id ? [{ group, position }] : [];
  });
  const compactedBefore = groups.findLastIndex((group) => group.kind === "compaction");
  const tally = lastCall?.requestID === requestID ? lastCall?.groups.find((entry) => entry.label === task.id) : undefined;
  const shown = tally !== undefined && tally.kept + tally.replaced > 0;
  const digests = digestGroups(
    messages,
    own.map(({ group }) => group),
  );
  const hidden = own.flatMap(({ position }, index) => {
    const digest = digests[index];
    return digest && (!shown || position < compactedBefore) ? [{ number: index + 1, digest }] : [];
  });
  return { kind: "found", task, requestID, total: own.length, hidden: hidden.reverse() };
}

/**
 * Every exchange of a task in a session's stored history, newest first: what `rcm_recall`
 * reads of a resumed task in the earlier session it comes from (none of it is in view). Pure.
 */
export function taskExchanges(options: { messages: readonly MessageWithParts[]; ledger: Ledger; task: string }): NumberedExchange[] {
  const { messages, ledger, task } = options;
  const groups = toInteractionGroups(messages);
  const tasks = groupTasks(groups, ledger);
  const own = groups.filter((_group, position) => {
    const where = tasks[position];
    return where?.kind === "task" && where.task === task;
  });
  return digestGroups(messages, own)
    .map((digest, index) => ({ number: index + 1, digest }))
    .reverse();
}

/**
 * The request the assistant message answers, if routed: its group's, or (for a continuation)
 * the request before it; the ledger's latest when the message is not stored yet.
 */
function answeredRequest(messages: readonly MessageWithParts[], groups: readonly InteractionGroup[], ledger: Ledger, messageID: string): string | undefined {
  const at = messages.findIndex((message) => message.info.id === messageID);
  if (at === -1) return ledger.order.at(-1);
  for (let index = groups.findIndex((group) => group.indices.includes(at)); index >= 0; index -= 1) {
    const group = groups[index];
    if (!group || (group.kind !== "request" && group.kind !== "orphan")) continue;
    const id = groupRequestID(group);
    return ledger.decisions[id] ? id : undefined;
  }
  return undefined;
}
