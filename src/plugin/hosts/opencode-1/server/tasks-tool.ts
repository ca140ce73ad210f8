import { type ToolDefinition, tool } from "@opencode-ai/plugin";
import { type createTasksAnswer, TASKS_TEXT, TASKS_TOOL } from "../../../handlers/tasks-answer.js";
import { parseToolArgs } from "../../../handlers/tool-args.js";

const args = {
  action: tool.schema.enum(["list", "show"]).describe(TASKS_TEXT.action),
  task: tool.schema
    .string()
    .regex(/^t\d+$/)
    .optional()
    .describe(TASKS_TEXT.task),
};
const ArgsSchema = tool.schema
  .object(args)
  .strict()
  .refine((value) => value.action !== "show" || value.task !== undefined, {
    path: ["task"],
    message: TASKS_TEXT.showNeedsTask,
  });

/** `rcm_tasks` as an OpenCode tool: the agent lists the session's tasks or reads one task's record (handlers/tasks-answer.ts). */
export function createTasksTool(answer: ReturnType<typeof createTasksAnswer>): ToolDefinition {
  return tool({
    description: TASKS_TEXT.description,
    args,
    async execute(raw, context) {
      const { action, task } = parseToolArgs(TASKS_TOOL, ArgsSchema, raw);
      return answer({ sessionID: context.sessionID, action, task });
    },
  });
}
