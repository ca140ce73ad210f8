import { listTasks, showTask } from "../core/memory/describe-tasks.js";
import type { SessionStore } from "../sessions/session-store.js";

/** The tasks tool's name, as the host offers it to the model and as a user message's `tools` map names it. */
export const TASKS_TOOL = "rcm_tasks";

/** What every host tells the model of the tasks tool and its arguments, and the problem of a `show` without a task. */
export const TASKS_TEXT = {
  description:
    "List the tasks of this session that opencode-rcm tracks (id, title, status, goal), or show one task's memory record (goal, constraints, progress, pending work, files, uncertainties). Use it when resuming a task.",
  action: "list: every task of this session; show: one task's memory record",
  task: "The task id for show, e.g. t2",
  showNeedsTask: "show needs a task id, e.g. t2",
} as const;

/** `rcm_tasks`'s answer: the session's tasks, or one task's record. */
export function createTasksAnswer(deps: { store: SessionStore; recordTokens: number }) {
  return async (call: { sessionID: string; action: "list" | "show"; task?: string | undefined }): Promise<string> => {
    const state = await deps.store.read(call.sessionID);
    if (!state) return "opencode-rcm does not track tasks in sub-agent sessions.";
    if (call.action === "list") return listTasks(state.ledger, state.records);
    return showTask(state.ledger, state.records, call.task ?? "", deps.recordTokens);
  };
}
