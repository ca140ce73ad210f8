import { type ToolDefinition, tool } from "@opencode-ai/plugin";
import { type createRecallAnswer, RECALL_MAX_LIMIT, RECALL_TOOL } from "../../../handlers/recall-answer.js";
import { parseToolArgs } from "./tool-args.js";

const args = {
  task: tool.schema
    .string()
    .regex(/^t\d+$/)
    .describe("The task whose hidden history to read, e.g. t2 (an unknown id gets the list of tasks)"),
  limit: tool.schema
    .number()
    .int()
    .min(1)
    .max(RECALL_MAX_LIMIT)
    .optional()
    .describe("At most this many exchanges, newest first (default: as many as fit about 2,000 tokens)"),
};
const ArgsSchema = tool.schema.object(args).strict();

/** `rcm_recall` as an OpenCode tool: the model reads what routing left out of its context (handlers/recall-answer.ts). */
export function createRecallTool(answer: ReturnType<typeof createRecallAnswer>): ToolDefinition {
  return tool({
    description:
      "Read what opencode-rcm left out of your context: the recent exchanges of another task of this session (the user's requests, your tool calls in brief, your answers), newest first, secrets redacted. Use it when the current request depends on earlier work you cannot see.",
    args,
    async execute(raw, context) {
      const { task, limit } = parseToolArgs(RECALL_TOOL, ArgsSchema, raw);
      return answer({ sessionID: context.sessionID, messageID: context.messageID, task, limit });
    },
  });
}
