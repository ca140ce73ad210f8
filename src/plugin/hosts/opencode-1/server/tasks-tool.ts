import { type ToolDefinition, tool } from "@opencode-ai/plugin";
import { listTasks, showTask } from "../../../core/memory/describe-tasks.js";
import type { SessionStore } from "../../../sessions/session-store.js";
import { parseToolArgs } from "./tool-args.js";

/** The tool's name, as OpenCode offers it to the model and as a user message's `tools` map names it. */
export const TASKS_TOOL = "rcm_tasks";

const args = {
  action: tool.schema.enum(["list", "show"]).describe("list: every task of this session; show: one task's memory record"),
  task: tool.schema
    .string()
    .regex(/^t\d+$/)
    .optional()
    .describe("The task id for show, e.g. t2"),
};
const ArgsSchema = tool.schema
  .object(args)
  .strict()
  .refine((value) => value.action !== "show" || value.task !== undefined, {
    path: ["task"],
    message: "show needs a task id, e.g. t2",
  });

/** `rcm_tasks`: lets the agent list the session's tasks or read one task's record. */
export function createTasksTool(deps: { store: SessionStore; recordTokens: number }): ToolDefinition {
  return tool({
    description:
      "List the tasks of this session that opencode-rcm tracks (id, title, status, goal), or show one task's memory record (goal, constraints, progress, pending work, files, uncertainties). Use it when resuming a task.",
    args,
    async execute(raw, context) {
      const { action, task } = parseToolArgs(TASKS_TOOL, ArgsSchema, raw);
      const state = await deps.store.read(context.sessionID);
      if (!state) return "opencode-rcm does not track tasks in sub-agent sessions.";
      if (action === "list") return listTasks(state.ledger, state.records);
      return showTask(state.ledger, state.records, task ?? "", deps.recordTokens);
    },
  });
}
