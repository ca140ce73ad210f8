import { listTasks, showTask } from "../core/memory/describe-tasks.js";
import type { SessionStore } from "../sessions/session-store.js";

/** The tasks tool's name, as the host offers it to the model and as a user message's `tools` map names it. */
export const TASKS_TOOL = "rcm_tasks";

/** `rcm_tasks`'s answer: the session's tasks, or one task's record. */
export function createTasksAnswer(deps: { store: SessionStore; recordTokens: number }) {
  return async (call: { sessionID: string; action: "list" | "show"; task?: string | undefined }): Promise<string> => {
    const state = await deps.store.read(call.sessionID);
    if (!state) return "opencode-rcm does not track tasks in sub-agent sessions.";
    if (call.action === "list") return listTasks(state.ledger, state.records);
    return showTask(state.ledger, state.records, call.task ?? "", deps.recordTokens);
  };
}
