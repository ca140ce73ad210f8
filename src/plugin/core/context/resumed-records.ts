import type { TaskRecord } from "../memory/record.js";
import { renderRecord } from "../memory/render-record.js";
import type { LedgerTask } from "../routing/ledger.js";
import type { CallView } from "./call-view.js";
import { type ContextPlan, withInsertedBefore } from "./context-plan.js";
import { recordMessage } from "./replace-covered-exchanges.js";

/**
 * Step (memory and full): a task resumed from an earlier session gets what it had there (its
 * records) right before its first request the call keeps, ahead of anything else placed
 * there, so its requirements reach the model although that session's exchanges do not. A
 * task none of whose requests the call keeps (narrowed to another task) gets nothing; one
 * whose requests a compaction summarized gets it before the request the call answers, when
 * the call is its.
 */
export function withResumedRecords(options: {
  view: CallView;
  plan: ContextPlan;
  tasks: readonly LedgerTask[];
  /** The task the call is narrowed to, if any. */
  active: string | undefined;
  /** The text for a resumed task, undefined when it brought no record. */
  render: (task: LedgerTask) => string | undefined;
}): { plan: ContextPlan; placed: string[] } {
  const { view, tasks, active } = options;
  let { plan } = options;
  const placed: string[] = [];
  for (const task of tasks) {
    if (!task.resumed) continue;
    const at = firstKeptRequest(view, plan, task.id) ?? (task.id === active ? currentRequest(view, plan) : undefined);
    const anchor = at === undefined ? undefined : view.messages[at];
    const text = anchor ? options.render(task) : undefined;
    if (at === undefined || !anchor || text === undefined) continue;
    plan = withInsertedBefore(plan, at, recordMessage(anchor, task.id, text, `${anchor.info.id}-rcm-resumed-${task.id}`), { first: true });
    placed.push(task.id);
  }
  return { plan, placed };
}

/** The message position of the task's first request in view that the plan keeps. */
function firstKeptRequest(view: CallView, plan: ContextPlan, task: string): number | undefined {
  for (const [position, group] of view.groups.entries()) {
    const where = view.tasks[position];
    const first = group.indices[0];
    if (group.kind === "request" && where?.kind === "task" && where.task === task && first !== undefined && !plan.dropped.has(first)) return first;
  }
  return undefined;
}

function currentRequest(view: CallView, plan: ContextPlan): number | undefined {
  const { current } = view;
  if (current.kind !== "routed" || current.position < 0) return undefined;
  const first = view.groups[current.position]?.indices[0];
  return first === undefined || plan.dropped.has(first) ? undefined : first;
}

/** What the model reads for a resumed task: where it comes from, then its records there, oldest first. */
export function resumedRecordText(task: LedgerTask, records: readonly TaskRecord[], maxTokens: number): string | undefined {
  const from = task.resumed;
  if (!from || records.length === 0) return undefined;
  const session = from.sessionTitle ? `"${from.sessionTitle}"` : from.session;
  const head = `opencode-rcm: ${task.id} "${task.title}" goes on from an earlier session (${session}, last worked on ${from.lastActive.slice(0, 10)}). What it had settled there:`;
  return [head, ...records.map((record) => renderRecord(record, { title: task.title, maxTokens, earlier: true }))].join("\n\n");
}
