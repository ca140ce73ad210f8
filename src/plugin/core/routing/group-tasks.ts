import { groupRequestID, type InteractionGroup } from "../interaction-groups.js";
import { isSettled, type Ledger, type LedgerEntry } from "./ledger.js";

/**
 * Where a group belongs: a task, or everywhere (`visible`: shared instructions,
 * unassigned interactions, compaction summaries).
 */
export type GroupTask = { kind: "task"; task: string } | { kind: "visible"; why: "shared" | "unassigned" | "compaction" };

/**
 * Resolves every group's task from the ledger. A request has its own decision; a
 * continuation ("Continue if you have next steps") carries on the request before it; an
 * orphan (steps whose request was compacted away) belongs to its request's decision.
 */
export function groupTasks(groups: readonly InteractionGroup[], ledger: Ledger): GroupTask[] {
  let previous: GroupTask = { kind: "visible", why: "unassigned" };
  return groups.map((group) => {
    let result: GroupTask;
    if (group.kind === "compaction") return { kind: "visible", why: "compaction" };
    if (group.kind === "continuation") result = previous;
    else {
      const entry = ledger.decisions[groupRequestID(group)];
      if (entry) result = entry.shared ? { kind: "visible", why: "shared" } : { kind: "task", task: entry.task };
      else result = group.kind === "orphan" ? previous : { kind: "visible", why: "unassigned" };
    }
    previous = result;
    return result;
  });
}

/**
 * The task each group is evidence for, or undefined: a group counts for its task only where
 * its request's decision is settled (sure, the user's, or borne out by its edits). `tasks`:
 * the groups' `groupTasks` under the same ledger, when the caller has them already.
 */
export function evidenceTasks(
  groups: readonly InteractionGroup[],
  ledger: Ledger,
  threshold: number,
  tasks: readonly GroupTask[] = groupTasks(groups, ledger),
): (string | undefined)[] {
  let settled = false;
  return groups.map((group, position) => {
    const entry = group.kind === "request" || group.kind === "orphan" ? ledger.decisions[groupRequestID(group)] : undefined;
    if (entry) settled = isSettled(entry, threshold);
    else if (group.kind === "request") settled = false;
    const task = tasks[position];
    return settled && task?.kind === "task" ? task.task : undefined;
  });
}

/**
 * Whether a request's exchange goes into a call narrowed to `visible` (the call's task and
 * the tasks it relates to). A settled request goes with its task; a rule for every task goes
 * everywhere; a request whose place is not settled rides along with every task it could be
 * (its candidates), so that a guess never decides what a narrowed call carries or leaves out.
 */
export function carriedInNarrowedCall(entry: LedgerEntry, visible: ReadonlySet<string>, threshold: number): boolean {
  if (entry.shared) return true;
  if (isSettled(entry, threshold)) return visible.has(entry.task);
  return visible.has(entry.task) || (entry.pointsTo ?? entry.candidates ?? []).some((task) => visible.has(task));
}
