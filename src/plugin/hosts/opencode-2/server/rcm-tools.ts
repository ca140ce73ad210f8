import { z } from "zod";
import { type createRecallAnswer, RECALL_MAX_LIMIT, RECALL_TEXT, RECALL_TOOL } from "../../../handlers/recall-answer.js";
import { type createTasksAnswer, TASKS_TEXT, TASKS_TOOL } from "../../../handlers/tasks-answer.js";
import { parseToolArgs } from "../../../handlers/tool-args.js";
import type { ToolDefinition } from "./api.js";

const TasksArgs = z
  .strictObject({
    action: z.enum(["list", "show"]).describe(TASKS_TEXT.action),
    task: z
      .string()
      .regex(/^t\d+$/)
      .optional()
      .describe(TASKS_TEXT.task),
  })
  .refine((value) => value.action !== "show" || value.task !== undefined, { path: ["task"], message: TASKS_TEXT.showNeedsTask });

const RecallArgs = z.strictObject({
  task: z
    .string()
    .regex(/^t\d+$/)
    .describe(RECALL_TEXT.task),
  limit: z.number().int().min(1).max(RECALL_MAX_LIMIT).optional().describe(RECALL_TEXT.limit),
});

/** The JSON Schema OpenCode 2 offers the model (the refinement stays in `parse`). */
function inputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

const text = (answer: string) => ({ content: [{ type: "text" as const, text: answer }] });

/**
 * `rcm_tasks` and `rcm_recall` as OpenCode 2 tools (handlers/tasks-answer.ts, recall-answer.ts),
 * offered as top-level tools (`codemode: false`): in code mode the model reaches them only
 * through `execute`, and the tool gates could not keep them out of a request.
 */
export function rcmTools(answers: {
  tasks?: ReturnType<typeof createTasksAnswer> | undefined;
  recall?: ReturnType<typeof createRecallAnswer> | undefined;
}): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  const { tasks, recall } = answers;
  if (tasks)
    tools.push({
      name: TASKS_TOOL,
      description: TASKS_TEXT.description,
      input: inputSchema(TasksArgs),
      options: { codemode: false },
      async execute(raw, context) {
        const { action, task } = parseToolArgs(TASKS_TOOL, TasksArgs, raw);
        return text(await tasks({ sessionID: context.sessionID, action, task }));
      },
    });
  if (recall)
    tools.push({
      name: RECALL_TOOL,
      description: RECALL_TEXT.description,
      input: inputSchema(RecallArgs),
      options: { codemode: false },
      async execute(raw, context) {
        const { task, limit } = parseToolArgs(RECALL_TOOL, RecallArgs, raw);
        return text(await recall({ sessionID: context.sessionID, messageID: context.messageID, task, limit }));
      },
    });
  return tools;
}
