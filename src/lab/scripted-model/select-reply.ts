import { z } from "zod";
import { DEFAULT_FALLBACK, DEFAULT_SUMMARY, type Reply, type Script } from "./script.js";

// Only the fields the scripted model reads are described; everything else passes through
// untouched so the log keeps the exact request.
const ChatMessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
});

export const ChatRequestBodySchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(ChatMessageSchema),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});

export type ChatMessage = z.infer<typeof ChatMessageSchema>;
export type ChatRequestBody = z.infer<typeof ChatRequestBodySchema>;

/** A function alternative to a Script; `index` is the 0-based request arrival count. */
export type Responder = (request: { body: ChatRequestBody; index: number }) => Reply | Promise<Reply>;

export interface SelectedReply {
  stageId: string | null;
  step: number;
  reply: Reply;
}

/** Text of a message: a string, or the text parts of a content array joined by "\n". */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content as unknown[]) {
    if (typeof part === "object" && part !== null && "type" in part && "text" in part) {
      const { type, text } = part as { type: unknown; text: unknown };
      if (type === "text" && typeof text === "string") texts.push(text);
    }
  }
  return texts.join("\n");
}

/**
 * Stateless, deterministic reply choice: the latest user message picks the stage (first
 * stage whose `when` it contains); the number of assistant turns since then picks the step.
 * Being stateless means retries and parallel sessions cannot desynchronise the script.
 */
export function selectReply({ script, body }: { script: Script; body: ChatRequestBody }): SelectedReply {
  const fallback = script.fallback ?? DEFAULT_FALLBACK;
  const messages = body.messages;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      lastUser = i;
      break;
    }
  }
  const userText = lastUser >= 0 ? messageText(messages[lastUser]?.content) : "";
  const step = messages.slice(lastUser + 1).filter((m) => m.role === "assistant").length;
  if (isCompactionRequest(userText)) return { stageId: "(compaction)", step, reply: { text: script.summary ?? DEFAULT_SUMMARY } };
  const stage = lastUser >= 0 ? script.stages.find((s) => userText.includes(s.when)) : undefined;
  if (stage === undefined) return { stageId: null, step, reply: fallback };
  return { stageId: stage.id, step, reply: stage.steps[step] ?? fallback };
}

/**
 * OpenCode's compaction call sends the serialized history as one user message. It quotes
 * earlier requests, so stage matching would pick a tool-calling stage, which the
 * summarizer rejects; it gets the script's summary text instead.
 */
export function isCompactionRequest(userText: string): boolean {
  return userText.startsWith("Here is the conversation so far:") && userText.includes("<conversation>");
}
