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
 * The requests whose task is known, so their requirements belong in its record: settled
 * decisions (sure, the user's word, borne out by the turn's edits, a move), and an unsure
 * guess that the user's next request settled by going on, surely, in the same task the
 * session was surely on before it (a guess between two sure requests of one task; not one
 * that opened a task). Shared instructions are every task's and go in none.
 */
export function rememberedRequests(ledger: Ledger, threshold: number): Set<string> {
  const entries = ledger.order.flatMap((id) => {
    const entry = ledger.decisions[id];
    return entry && !entry.shared ? [{ id, entry, settled: isSettled(entry, threshold) }] : [];
  });
  const remembered = new Set<string>();
  let before: string | undefined;
  entries.forEach(({ id, entry, settled }, position) => {
    const after = entries.slice(position + 1).find((next) => next.settled);
    const between = !entry.opened && before === entry.task && after?.entry.task === entry.task && entries[position + 1]?.entry.task === entry.task;
    if (settled || between) remembered.add(id);
    if (settled) before = entry.task;
  });
  return remembered;
}

/** The user messages of a task whose requirements its record keeps, in routing order. */
export function requestIDsOf(ledger: Ledger, task: string, threshold: number): string[] {
  const remembered = rememberedRequests(ledger, threshold);
  return ledger.order.filter((id) => ledger.decisions[id]?.task === task && remembered.has(id));
}
