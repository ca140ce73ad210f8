import { z } from "zod";
import type { AssistantMessage, MessageWithParts, Part, TokenCounts, ToolState } from "../../../plugin/core/messages.js";

// OpenCode 2.0.15's stored history (`GET /api/session/<id>/message`) in the shape the bench's
// metrics read, OpenCode 1.18's messages with parts: a user message opens a request, each
// assistant step is a model call with its reported tokens, a compaction is a marker and a summary
// call (its tokens, when OpenCode 2 called the model for it; none when the plug-in wrote it).
// Only what the metrics read is kept; idle marks, agent and model switches are left out.

const TokensSchema = z.object({
  input: z.number(),
  output: z.number(),
  reasoning: z.number().default(0),
  cache: z.object({ read: z.number(), write: z.number() }).default({ read: 0, write: 0 }),
});
const TimeSchema = z.object({ created: z.number(), completed: z.number().optional() });
const ToolContentSchema = z.object({
  type: z.literal("tool"),
  id: z.string(),
  name: z.string(),
  state: z.object({
    status: z.string(),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    error: z.object({ message: z.string().optional() }).passthrough().optional(),
  }),
});
const ContentSchema = z.union([
  z.object({ type: z.enum(["text", "reasoning"]), text: z.string() }),
  ToolContentSchema,
  z.object({ type: z.string() }).passthrough(),
]);

const UserSchema = z.object({ type: z.enum(["user", "synthetic"]), id: z.string(), time: TimeSchema, text: z.string() });
const AssistantSchema = z.object({
  type: z.literal("assistant"),
  id: z.string(),
  time: TimeSchema,
  agent: z.string().default(""),
  model: z.object({ id: z.string(), providerID: z.string() }),
  content: z.array(ContentSchema),
  finish: z.string().optional(),
  cost: z.number().default(0),
  tokens: TokensSchema.optional(),
  error: z.unknown().optional(),
});
const CompactionSchema = z.object({
  type: z.literal("compaction"),
  id: z.string(),
  time: TimeSchema,
  reason: z.string().optional(),
  summary: z.string().optional(),
  tokens: TokensSchema.optional(),
});

/** The stored message kinds the metrics read, by `type`; the rest (idle, agent, model...) are left out. */
const SCHEMAS: Record<string, z.ZodTypeAny> = { user: UserSchema, synthetic: UserSchema, assistant: AssistantSchema, compaction: CompactionSchema };

const NO_TOKENS: TokenCounts = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };

/** The stored history of an OpenCode 2 session as OpenCode 1.18's messages with parts; a shape it does not know throws, naming the message. */
export function opencode2Messages(sessionID: string, stored: readonly unknown[]): MessageWithParts[] {
  const messages: MessageWithParts[] = [];
  let parentID = "";
  const user = (id: string, created: number, parts: Part[]) => {
    messages.push({ info: { id, sessionID, role: "user", time: { created }, agent: "", model: { providerID: "", modelID: "" } }, parts });
    parentID = id;
  };
  const assistant = (info: Omit<AssistantMessage, "sessionID" | "role" | "parentID" | "path">, parts: Part[]) =>
    messages.push({ info: { ...info, sessionID, role: "assistant", parentID, path: { cwd: "", root: "" } }, parts });
  for (const [index, value] of stored.entries()) {
    const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
    const schema = typeof type === "string" ? SCHEMAS[type] : undefined;
    if (schema === undefined) continue;
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new Error(
        `OpenCode 2 session ${sessionID}, stored message ${index} (${type}): ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
      );
    if (type === "user" || type === "synthetic") {
      const { id, time, text } = parsed.data as z.infer<typeof UserSchema>;
      user(id, time.created, [{ id: `${id}-text`, sessionID, messageID: id, type: "text", text, ...(type === "synthetic" ? { synthetic: true } : {}) }]);
    } else if (type === "assistant") {
      const { id, time, agent, model, content, tokens, cost, finish, error } = parsed.data as z.infer<typeof AssistantSchema>;
      const info = {
        id,
        time: { created: time.created, ...(time.completed === undefined ? {} : { completed: time.completed }) },
        modelID: model.id,
        providerID: model.providerID,
        mode: agent,
        agent,
        cost,
        tokens: tokens ?? NO_TOKENS,
        ...(finish === undefined ? {} : { finish }),
        ...(error === undefined || error === null ? {} : { error: { name: "error", data: error } }),
      };
      assistant(
        info,
        content.flatMap((item, position) => contentPart(sessionID, id, position, item)),
      );
    } else {
      const { id, time, summary, tokens, reason } = parsed.data as z.infer<typeof CompactionSchema>;
      user(id, time.created, [{ id: `${id}-marker`, sessionID, messageID: id, type: "compaction", auto: reason !== "manual" }]);
      const summaryID = `${id}-summary`;
      const info = {
        id: summaryID,
        time: { created: time.created, completed: time.created },
        modelID: "",
        providerID: "",
        mode: "compaction",
        agent: "compaction",
      };
      assistant(
        { ...info, summary: true, cost: 0, tokens: tokens ?? NO_TOKENS, finish: "stop" },
        summary === undefined ? [] : [{ id: `${summaryID}-text`, sessionID, messageID: summaryID, type: "text", text: summary }],
      );
    }
  }
  return messages;
}

function contentPart(sessionID: string, messageID: string, position: number, item: z.infer<typeof ContentSchema>): Part[] {
  const id = `${messageID}-${position}`;
  if ((item.type === "text" || item.type === "reasoning") && "text" in item && typeof item.text === "string")
    return [{ id, sessionID, messageID, type: item.type, text: item.text }];
  const tool = ToolContentSchema.safeParse(item);
  if (!tool.success) return [];
  return [{ id, sessionID, messageID, type: "tool", callID: tool.data.id, tool: tool.data.name, state: toolState(tool.data.state) }];
}

function toolState(state: z.infer<typeof ToolContentSchema>["state"]): ToolState {
  const input = typeof state.input === "object" && state.input !== null ? (state.input as Record<string, unknown>) : {};
  const time = { start: 0, end: 0 };
  if (state.status === "completed") {
    const output = typeof state.output === "string" ? state.output : JSON.stringify(state.output ?? "");
    return { status: "completed", input, output, title: "", metadata: {}, time };
  }
  if (state.status === "error") return { status: "error", input, error: state.error?.message ?? "failed", time };
  return { status: "running", input, time: { start: 0 } };
}
