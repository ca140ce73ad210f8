import { RECALL_TOOL } from "./recall-answer.js";
import type { GatedTool } from "./tool-gate.js";

/** With one task, routing hides nothing: `rcm_recall` has nothing to fetch. */
const TASKS_WORTH_THE_TOOL = 2;

/**
 * When `rcm_recall` is offered (see createToolGate; only in the modes that narrow): once the
 * session has a second task or a task resumed from an earlier session (whose exchanges there
 * are never in view), unless the user switched it off (then nothing is hidden). It does
 * not follow each call's confidence: a tool that came and went with it would cost the prompt
 * cache at every unsure request.
 */
export function recallToolGated(): GatedTool {
  return {
    name: RECALL_TOOL,
    offered: (state) => (state.ledger.tasks.length >= TASKS_WORTH_THE_TOOL || state.ledger.tasks.some((task) => task.resumed)) && !state.off,
  };
}
