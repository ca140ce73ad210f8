import { groupRequestID, type InteractionGroup } from "../interaction-groups.js";
import type { MessageWithParts } from "../messages.js";
import { groupTasks } from "../routing/group-tasks.js";
import type { Ledger } from "../routing/ledger.js";
import { isConfident } from "../routing/ledger.js";
import { covers, type TaskRecord } from "./record.js";

/**
 * Per task, the groups of finished turns that its record does not cover yet, in session
 * order. A turn still running is left for the next update: a late session.idle can start
 * an update while the next request is being answered. A group routed below `threshold` is
 * never remembered: its task is a guess, and a guess must not put one task's requirements
 * into another's record (the group stays verbatim in the history instead).
 */
export function uncoveredGroups(options: {
  messages: readonly MessageWithParts[];
  groups: readonly InteractionGroup[];
  ledger: Ledger;
  records: Readonly<Record<string, TaskRecord>>;
  threshold?: number;
}): Map<string, InteractionGroup[]> {
  const { messages, groups, ledger, records, threshold = 0 } = options;
  const tasks = groupTasks(groups, ledger);
  const confidences = groupConfidences(groups, ledger);
  const done = finishedGroups(groups, messages);
  const result = new Map<string, InteractionGroup[]>();
  groups.forEach((group, position) => {
    const task = tasks[position];
    if (task?.kind !== "task" || covers(records[task.task], group.id) || !done[position]) return;
    if ((confidences[position] ?? 0) < threshold) return;
    const list = result.get(task.task) ?? [];
    list.push(group);
    result.set(task.task, list);
  });
  return result;
}

/**
 * A group is finished when its last step ended the loop (completed without asking for
 * tools, or failed), or when a later group has been answered (the loop moved on, e.g.
 * after a compaction cut the turn short).
 */
function finishedGroups(groups: readonly InteractionGroup[], messages: readonly MessageWithParts[]): boolean[] {
  const result = new Array<boolean>(groups.length).fill(false);
  let laterAnswered = false;
  for (let position = groups.length - 1; position >= 0; position -= 1) {
    const steps = (groups[position]?.indices ?? []).map((index) => messages[index]?.info).filter((info) => info?.role === "assistant");
    const last = steps[steps.length - 1];
    const ended = last?.role === "assistant" && (last.error !== undefined || (last.time.completed !== undefined && last.finish !== undefined && last.finish !== "tool-calls"));
    result[position] = steps.length > 0 && (ended || laterAnswered);
    if (steps.length > 0) laterAnswered = true;
  }
  return result;
}

/** The confidence of the decision each group's task comes from (continuations and orphans inherit, as in groupTasks). */
function groupConfidences(groups: readonly InteractionGroup[], ledger: Ledger): number[] {
  let previous = 0;
  return groups.map((group) => {
    if (group.kind === "request" || group.kind === "orphan") {
      const entry = ledger.decisions[groupRequestID(group)];
      if (entry || group.kind === "request") previous = entry?.confidence ?? 0;
    }
    return previous;
  });
}

/** The user messages confidently routed to a task, in routing order (shared instructions excluded). */
export function requestIDsOf(ledger: Ledger, task: string, threshold: number): string[] {
  return ledger.order.filter((id) => {
    const entry = ledger.decisions[id];
    return entry !== undefined && entry.task === task && !entry.shared && isConfident(entry, threshold);
  });
}
