import { groupRequestID, type InteractionGroup } from "../interaction-groups.js";
import type { MessageWithParts } from "../messages.js";
import { groupTasks } from "../routing/group-tasks.js";
import type { Ledger } from "../routing/ledger.js";
import { isSettled } from "../routing/ledger.js";
import { covers, type TaskRecord } from "./record.js";

/**
 * Per task, the groups of finished turns that its record does not cover yet, in session
 * order. A turn still running is left for the next update: a late session.idle can start
 * an update while the next request is being answered. A group whose task is an unsure guess
 * is not remembered yet: a guess must not put one task's requirements into another's record
 * (the group stays verbatim in the history instead). It is once the guess is settled
 * (rememberedRequests).
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
  const remembered = rememberedRequests(ledger, threshold);
  const settled = groupsSettled(groups, remembered);
  const done = finishedGroups(groups, messages);
  const result = new Map<string, InteractionGroup[]>();
  groups.forEach((group, position) => {
    const task = tasks[position];
    if (task?.kind !== "task" || covers(records[task.task], group.id) || !done[position]) return;
    if (!settled[position]) return;
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
    const ended =
      last?.role === "assistant" &&
      (last.error !== undefined || (last.time.completed !== undefined && last.finish !== undefined && last.finish !== "tool-calls"));
    result[position] = steps.length > 0 && (ended || laterAnswered);
    if (steps.length > 0) laterAnswered = true;
  }
  return result;
}

/** Whether each group's request is remembered (continuations and orphans inherit, as in groupTasks). */
function groupsSettled(groups: readonly InteractionGroup[], remembered: ReadonlySet<string>): boolean[] {
  let previous = false;
  return groups.map((group) => {
    if (group.kind === "request" || group.kind === "orphan") {
      const id = groupRequestID(group);
      if (remembered.has(id) || group.kind === "request") previous = remembered.has(id);
    }
    return previous;
  });
}

/**
 * The requests whose place is settled, so their requirements belong in their task's record:
 * sure decisions, the user's word (a move), and unsure ones the session's rules settled (the
 * turn's edits, the next request carrying on as a reply: ledger.ts). An unsure guess that only
 * sits between two sure requests of a task is not settled: the user who went back to the task
 * said nothing of the request in between. Shared instructions are every task's and go in none.
 */
export function rememberedRequests(ledger: Ledger, threshold: number): Set<string> {
  return new Set(
    ledger.order.filter((id) => {
      const entry = ledger.decisions[id];
      return entry !== undefined && !entry.shared && isSettled(entry, threshold);
    }),
  );
}

/** The user messages of a task whose requirements its record keeps, in routing order. */
export function requestIDsOf(ledger: Ledger, task: string, threshold: number): string[] {
  const remembered = rememberedRequests(ledger, threshold);
  return ledger.order.filter((id) => ledger.decisions[id]?.task === task && remembered.has(id));
}
