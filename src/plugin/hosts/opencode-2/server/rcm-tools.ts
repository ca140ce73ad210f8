import { z } from "zod";
import { type createRecallAnswer, RECALL_MAX_LIMIT, RECALL_TOOL } from "../../../handlers/recall-answer.js";
import { type createTasksAnswer, TASKS_TOOL } from "../../../handlers/tasks-answer.js";
import type { ToolDefinition } from "./api.js";

const TasksArgs = z
  .strictObject({
    action: z.enum(["list", "show"]).describe("list: every task of this session; show: one task's memory record"),
    task: z
      .string()
      .regex(/^t\d+$/)
      .optional()
      .describe("The task id for show, e.g. t2"),
  })
  .refine((value) => value.action !== "show" || value.task !== undefined, { path: ["task"], message: "show needs a task id, e.g. t2" });

const RecallArgs = z.strictObject({
  task: z
    .string()
    .regex(/^t\d+$/)
    .describe("The task whose hidden history to read, e.g. t2 (an unknown id gets the list of tasks)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(RECALL_MAX_LIMIT)
    .optional()
    .describe("At most this many exchanges, newest first (default: as many as fit about 2,000 tokens)"),
});

/** A tool's arguments parsed with its schema (OpenCode does not validate them); throws with every problem named. */
function parse<Schema extends z.ZodType>(tool: string, schema: Schema, raw: unknown): z.output<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`);
  throw new Error(`${tool}: invalid arguments: ${problems.join("; ")}`);
}

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
      description:
        "List the tasks of this session that opencode-rcm tracks (id, title, status, goal), or show one task's memory record (goal, constraints, progress, pending work, files, uncertainties). Use it when resuming a task.",
      input: inputSchema(TasksArgs),
      options: { codemode: false },
      async execute(raw, context) {
        const { action, task } = parse(TASKS_TOOL, TasksArgs, raw);
        return text(await tasks({ sessionID: context.sessionID, action, task }));
      },
    });
  if (recall)
    tools.push({
      name: RECALL_TOOL,
      description:
        "Read what opencode-rcm left out of your context: the recent exchanges of another task of this session (the user's requests, your tool calls in brief, your answers), newest first, secrets redacted. Use it when the current request depends on earlier work you cannot see.",
      input: inputSchema(RecallArgs),
      options: { codemode: false },
      async execute(raw, context) {
        const { task, limit } = parse(RECALL_TOOL, RecallArgs, raw);
        return text(await recall({ sessionID: context.sessionID, messageID: context.messageID, task, limit }));
      },
    });
  return tools;
}
