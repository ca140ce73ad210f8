import type { AssistantMessage, Message, MessageWithParts, Part, TextPart, ToolPart, UserMessage } from "../../../core/messages.js";
import type { ContextContent, ContextMessage, ContextToolCall, ContextToolResult, ModelRef } from "./api.js";

/**
 * OpenCode 2's request messages as the plug-in reads them (core/messages.ts), and back.
 *
 * A request carries user and assistant messages with their stored ids, tool results as
 * id-less `tool` messages after the step that called them, and id-less `system` updates. Each
 * user message opens an interaction group; each assistant message is one step answering the
 * user message before it (OpenCode 2 sends no parentID). A tool message joins its step, whose
 * tool parts it completes. Anything else (a system update, a message with no id) is not the
 * plug-in's to route: it is kept in its place whatever the plug-in leaves out.
 */
/** How OpenCode 2.0.15 opens the first user message after a compaction. */
const CHECKPOINT = "<conversation-checkpoint>";

export interface ConvertedRequest {
  messages: MessageWithParts[];
  /** The request's messages after the plug-in changed `messages` in place. */
  back(): ContextMessage[];
}

interface Origin {
  /** The request's own messages this one stands for, in order: a step with its tool results. */
  messages: ContextMessage[];
  /** Where the first of them stood in the request. */
  position: number;
  /** The parts as converted: parts beyond these were added by the plug-in. */
  parts: readonly Part[];
}

export function fromContext(request: { sessionID: string; agent: string; model: ModelRef; messages: readonly ContextMessage[] }): ConvertedRequest {
  const { sessionID, agent, model } = request;
  const converted: MessageWithParts[] = [];
  const origins = new WeakMap<Message, Origin>();
  const kept: Array<{ position: number; message: ContextMessage }> = [];
  let parentID: string | undefined;
  let step: { entry: MessageWithParts; origin: Origin } | undefined;

  request.messages.forEach((message, position) => {
    if (message.role === "user" && message.id) {
      const info: UserMessage = {
        id: message.id,
        sessionID,
        role: "user",
        time: { created: 0 },
        agent,
        model: { providerID: model.providerID, modelID: model.id },
      };
      const parts = textParts(sessionID, message.id, contentOf(message));
      // After a compaction the request opens with OpenCode 2's checkpoint (summary and recent tail): a compaction marker, no request.
      if (parts[0]?.type === "text" && parts[0].text.startsWith(CHECKPOINT)) {
        parts[0] = { ...parts[0], synthetic: true };
        parts.unshift({ id: `prt-${message.id}-compaction`, sessionID, messageID: message.id, type: "compaction", auto: false });
      }
      const entry = { info, parts };
      converted.push(entry);
      origins.set(info, { messages: [message], position, parts: [...parts] });
      parentID = message.id;
      step = undefined;
      return;
    }
    if (message.role === "assistant" && message.id) {
      const content = contentOf(message);
      const calls = content.filter((item): item is ContextToolCall => item.type === "tool-call");
      const info: AssistantMessage = {
        id: message.id,
        sessionID,
        role: "assistant",
        time: { created: 0, completed: 0 },
        // Before any user message (a history cut by compaction): an orphan step, as OpenCode 1.18's would be.
        parentID: parentID ?? `${message.id}-parent`,
        modelID: model.id,
        providerID: model.providerID,
        mode: agent,
        agent,
        path: { cwd: "", root: "" },
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        finish: calls.length > 0 ? "tool-calls" : "stop",
      };
      const parts: Part[] = [];
      content.forEach((item, index) => {
        const id = `prt-${message.id}-${index}`;
        if (item.type === "text" && "text" in item) parts.push({ id, sessionID, messageID: info.id, type: "text", text: item.text });
        else if (item.type === "reasoning" && "text" in item) parts.push({ id, sessionID, messageID: info.id, type: "reasoning", text: item.text });
        else if (item.type === "tool-call") parts.push(pendingTool(sessionID, info.id, id, item as ContextToolCall));
      });
      const entry = { info, parts };
      const origin = { messages: [message], position, parts: [...parts] };
      converted.push(entry);
      origins.set(info, origin);
      step = { entry, origin };
      return;
    }
    if (message.role === "tool" && step) {
      for (const item of contentOf(message)) if (item.type === "tool-result") settle(step.entry.parts, item as ContextToolResult);
      step.origin.messages.push(message);
      return;
    }
    kept.push({ position, message });
  });

  return {
    messages: converted,
    back() {
      const result: ContextMessage[] = [];
      let next = 0;
      const flushBefore = (position: number) => {
        while (next < kept.length && (kept[next]?.position ?? Number.POSITIVE_INFINITY) < position)
          result.push((kept[next++] as { message: ContextMessage }).message);
      };
      for (const entry of converted) {
        const origin = origins.get(entry.info);
        if (!origin) {
          const fresh = freshMessage(entry);
          if (fresh) result.push(fresh);
          continue;
        }
        flushBefore(origin.position);
        const added = entry.parts.slice(origin.parts.length).filter((part): part is TextPart => part.type === "text" && !part.ignored);
        const [first, ...rest] = origin.messages;
        if (!first) continue;
        result.push(added.length === 0 ? first : withText(first, added));
        result.push(...rest);
      }
      flushBefore(Number.POSITIVE_INFINITY);
      return result;
    },
  };
}

function contentOf(message: ContextMessage): ContextContent[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function textParts(sessionID: string, messageID: string, content: readonly ContextContent[]): Part[] {
  const parts: Part[] = [];
  content.forEach((item, index) => {
    if (item.type === "text" && "text" in item) parts.push({ id: `prt-${messageID}-${index}`, sessionID, messageID, type: "text", text: item.text });
  });
  return parts;
}

function pendingTool(sessionID: string, messageID: string, id: string, call: ContextToolCall): ToolPart {
  const input = typeof call.input === "object" && call.input !== null ? (call.input as Record<string, unknown>) : {};
  return { id, sessionID, messageID, type: "tool", callID: call.id, tool: coreToolName(call.name), state: { status: "running", input, time: { start: 0 } } };
}

/** OpenCode 2's tool names as the plug-in reads tools (OpenCode 1.18's): its `shell` is the `bash` whose test runs the memory notes. */
export function coreToolName(name: string): string {
  return name === "shell" ? "bash" : name;
}

/** The call's part, completed (or failed) with the result the request carries. */
function settle(parts: Part[], result: ContextToolResult): void {
  const index = parts.findIndex((part) => part.type === "tool" && part.callID === result.id);
  const part = parts[index] as ToolPart | undefined;
  if (!part) return;
  const { input } = part.state;
  const time = { start: 0, end: 0 };
  const text = resultText(result.result.value);
  parts[index] =
    result.result.type === "error"
      ? { ...part, state: { status: "error", input, error: text, time } }
      : { ...part, state: { status: "completed", input, output: text, title: "", metadata: {}, time } };
}

/** A tool result's value as text: a string as it is; content items' text joined; anything else as JSON. */
export function resultText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value))
    return value.map((item) => (typeof item === "object" && item !== null && "text" in item ? String(item.text) : JSON.stringify(item))).join("\n");
  if (typeof value === "object" && value !== null) {
    const { content, error } = value as { content?: unknown; error?: { message?: unknown } };
    const message = typeof error?.message === "string" ? error.message : undefined;
    const body = Array.isArray(content) && content.length > 0 ? resultText(content) : undefined;
    if (message !== undefined || body !== undefined) return [message, body].filter(Boolean).join("\n");
  }
  return JSON.stringify(value) ?? "";
}

function withText(message: ContextMessage, added: readonly TextPart[]): ContextMessage {
  return { ...message, content: [...contentOf(message), ...added.map((part) => ({ type: "text" as const, text: part.text }))] };
}

/** A message the plug-in made (a task's record, a note): its text as the role's message. */
function freshMessage(entry: MessageWithParts): ContextMessage | undefined {
  const content = entry.parts
    .filter((part): part is TextPart => part.type === "text" && !part.ignored && part.text !== "")
    .map((part) => ({ type: "text" as const, text: part.text }));
  if (content.length === 0) return undefined;
  return { role: entry.info.role, content };
}
