import type { MessageWithParts } from "../core/messages.js";
import { TASKS_TOOL } from "./tasks-answer.js";
import type { GatedTool } from "./tool-gate.js";

/** `rcm_tasks` reads other tasks' records: with fewer tasks than this it has nothing to show. */
const TASKS_WORTH_THE_TOOL = 2;

/**
 * When `rcm_tasks` is offered (see createToolGate): once the session has a second task, unless
 * the user switched it off (the plug-in then stands aside entirely). Mode
 * memory leaves every task's history in view (`afterCompactionOnly`): there the tool can help
 * only once a compaction took some of it out, and that compaction has already changed the prefix.
 */
export function tasksToolGated(options: { afterCompactionOnly: boolean }): GatedTool {
  return {
    name: TASKS_TOOL,
    offered: (state, messages) => state.ledger.tasks.length >= TASKS_WORTH_THE_TOOL && !state.off && (!options.afterCompactionOnly || compacted(messages)),
  };
}

function compacted(messages: readonly MessageWithParts[]): boolean {
  return messages.some((message) => message.parts.some((part) => part.type === "compaction"));
}
