import type { Ledger } from "../routing/ledger.js";
import { currentTask } from "../routing/ledger.js";
import type { TaskRecord } from "./record.js";
import { RECORD_OPEN } from "./render-record.js";

/**
 * What the compacting hook appends to the summarizer's prompt: the demand to keep every
 * task, suspended ones included, and the list of tasks (id, status, title, whether a record
 * stands for it). The records themselves are in the conversation being summarized, in place
 * of the exchanges they cover, never here on top of it. Deterministic: tasks in opening order.
 */
export function compactionInstructions(options: { ledger: Ledger; records: Readonly<Record<string, TaskRecord>> }): string | undefined {
  const { ledger, records } = options;
  if (ledger.tasks.length === 0) return undefined;
  const current = currentTask(ledger);
  const lines = ledger.tasks.map((task) => {
    const status = task.id === current ? "current" : "suspended";
    const memory = records[task.id] ? "its memory record is in the conversation" : "no memory record yet: take its goal and requirements from the conversation";
    return `- Task ${task.id} (${status}): ${task.title.replace(/\s+/g, " ").trim()} (${memory})`;
  });
  return [
    `This session interleaves several tasks. opencode-rcm keeps a memory record per task; in the conversation, each record (a ${RECORD_OPEN} task="..."> block) stands in place of the older exchanges it covers.`,
    "In your summary, keep for EVERY task, the suspended ones included: its goal, its constraints (the user's requirements, word for word where they are precise), its progress (what is done and verified), and its pending work. Name each task by its id and say which one is current. Do not merge the tasks' requirements.",
    "",
    "Tasks:",
    ...lines,
  ].join("\n");
}
