import { type ToolDefinition, tool } from "@opencode-ai/plugin";
import { type createRecallAnswer, RECALL_MAX_LIMIT, RECALL_TEXT, RECALL_TOOL } from "../../../handlers/recall-answer.js";
import { parseToolArgs } from "../../../handlers/tool-args.js";

const args = {
  task: tool.schema
    .string()
    .regex(/^t\d+$/)
    .describe(RECALL_TEXT.task),
  limit: tool.schema.number().int().min(1).max(RECALL_MAX_LIMIT).optional().describe(RECALL_TEXT.limit),
};
const ArgsSchema = tool.schema.object(args).strict();

/** `rcm_recall` as an OpenCode tool: the model reads what routing left out of its context (handlers/recall-answer.ts). */
export function createRecallTool(answer: ReturnType<typeof createRecallAnswer>): ToolDefinition {
  return tool({
    description: RECALL_TEXT.description,
    args,
    async execute(raw, context) {
      const { task, limit } = parseToolArgs(RECALL_TOOL, ArgsSchema, raw);
      return answer({ sessionID: context.sessionID, messageID: context.messageID, task, limit });
    },
  });
}
