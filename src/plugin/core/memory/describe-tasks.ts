import type { Ledger } from "../routing/ledger.js";
import { currentTask } from "../routing/ledger.js";
import type { TaskRecord } from "./record.js";
import { renderRecord } from "./render-record.js";

/** The tasks of a session as the `rcm_tasks` tool lists them: id, status, title, goal. */
export function listTasks(ledger: Ledger, records: Readonly<Record<string, TaskRecord>>): string {
  if (ledger.tasks.length === 0) return "No tasks yet in this session.";
  const current = currentTask(ledger);
  return ledger.tasks
    .map((task) => {
      const record = records[task.id];
      const status = task.split ? `split → ${task.split.session}` : task.id === current ? "current" : "suspended";
      const goal = record ? record.goal : "(no record yet)";
      const pending = record && record.pending.length > 0 ? `; ${record.pending.length} pending` : "";
      return `${task.id} [${status}] ${task.title}\n  goal: ${goal}${pending}`;
    })
    .join("\n");
}

/**
 * One task's record as the `rcm_tasks` tool shows it; throws naming the known tasks if `id` is
 * not one. `whenWritten` says when a missing record will be written (the options decide).
 */
export function showTask(
  ledger: Ledger,
  records: Readonly<Record<string, TaskRecord>>,
  id: string,
  recordTokens: number,
  whenWritten = "it is written after a turn of this task ends",
): string {
  const task = ledger.tasks.find((candidate) => candidate.id === id);
  if (!task) {
    const known = ledger.tasks.map((candidate) => candidate.id).join(", ") || "none";
    throw new Error(`no task ${JSON.stringify(id)} in this session (tasks: ${known})`);
  }
  const record = records[task.id];
  if (!record) return `${task.id}: ${task.title}\nNo memory record yet: ${whenWritten}.`;
  return renderRecord(record, { title: task.title, maxTokens: recordTokens });
}
