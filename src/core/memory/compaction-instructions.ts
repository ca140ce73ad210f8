import type { Ledger } from "../routing/ledger.js";
import type { TaskRecord } from "./record.js";
import { renderRecord } from "./render-record.js";

/**
 * What the compacting hook appends to the summarizer's prompt: the demand to keep every
 * task, suspended ones included, and each task's record (or its title, if no update has
 * produced a record yet). Deterministic: tasks in opening order.
 */
export function compactionInstructions(options: {
  ledger: Ledger;
  records: Readonly<Record<string, TaskRecord>>;
  recordTokens: number;
}): string | undefined {
  const { ledger, records, recordTokens } = options;
  if (ledger.tasks.length === 0) return undefined;
  const lastRequest = ledger.order[ledger.order.length - 1];
  const current = lastRequest === undefined ? undefined : ledger.decisions[lastRequest]?.task;
  const blocks = ledger.tasks.map((task) => {
    const status = task.id === current ? "current" : "suspended";
    const record = records[task.id];
    if (!record) return `Task ${task.id} (${status}): ${task.title}\n(no memory record yet: take its goal and requirements from the conversation)`;
    return `Task ${task.id} (${status}):\n${renderRecord(record, { title: task.title, maxTokens: recordTokens })}`;
  });
  return [
    "This session interleaves several tasks. opencode-rcm keeps a memory record per task, below.",
    "In your summary, keep for EVERY task, the suspended ones included: its goal, its constraints (the user's requirements, word for word where they are precise), its progress (what is done and verified), and its pending work. Name each task by its id and say which one is current. Do not merge the tasks' requirements.",
    "",
    ...blocks,
  ].join("\n\n");
}
