import { type ToolDefinition, tool } from "@opencode-ai/plugin";
import { type createTasksAnswer, TASKS_TOOL } from "../../../handlers/tasks-answer.js";
import { parseToolArgs } from "./tool-args.js";

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

/** `rcm_tasks` as an OpenCode tool: the agent lists the session's tasks or reads one task's record (handlers/tasks-answer.ts). */
export function createTasksTool(answer: ReturnType<typeof createTasksAnswer>): ToolDefinition {
  return tool({
    description:
      "List the tasks of this session that opencode-rcm tracks (id, title, status, goal), or show one task's memory record (goal, constraints, progress, pending work, files, uncertainties). Use it when resuming a task.",
    args,
    async execute(raw, context) {
      const { action, task } = parseToolArgs(TASKS_TOOL, ArgsSchema, raw);
      return answer({ sessionID: context.sessionID, action, task });
    },
  });
}
