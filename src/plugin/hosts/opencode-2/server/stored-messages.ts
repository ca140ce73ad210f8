import type { AssistantMessage, MessageWithParts, Part, ToolState } from "../../../core/messages.js";
import type { StoredContent, StoredMessage } from "./api.js";
import { coreToolName, resultText } from "./context-messages.js";

/** Marks the plug-in's own answers to /rcm-text in a session (synthetic messages the model never gets). */
export const ANSWER_METADATA = { "opencode-rcm": "answer" } as const;

/**
 * OpenCode 2's stored messages as the plug-in reads them: user and synthetic messages open
 * groups (a synthetic one with synthetic text, so the router leaves it out), each assistant
 * step answers the user message before it. The plug-in's own answers, idle marks, agent and
 * model switches are left out; a compaction becomes its marker and its summary.
 */
export function fromStored(sessionID: string, stored: readonly StoredMessage[]): MessageWithParts[] {
  const messages: MessageWithParts[] = [];
  let parentID: string | undefined;
  for (const message of stored) {
    const user = (text: string, synthetic: boolean): void => {
      messages.push({
        info: { id: message.id, sessionID, role: "user", time: { created: message.time.created }, agent: "", model: { providerID: "", modelID: "" } },
        parts: [{ id: `prt-${message.id}`, sessionID, messageID: message.id, type: "text", text, ...(synthetic ? { synthetic: true } : {}) }],
      });
      parentID = message.id;
    };
    if (message.type === "user" && "text" in message) user(message.text, false);
    else if (message.type === "synthetic" && "text" in message) {
      if (!isAnswer(message)) user(message.text, true);
    } else if (message.type === "assistant" && "content" in message) {
      const info: AssistantMessage = {
        id: message.id,
        sessionID,
        role: "assistant",
        time: { created: message.time.created, ...(message.time.completed === undefined ? {} : { completed: message.time.completed }) },
        parentID: parentID ?? `${message.id}-parent`,
        modelID: message.model.id,
        providerID: message.model.providerID,
        mode: message.agent,
        agent: message.agent,
        path: { cwd: "", root: "" },
        cost: message.cost ?? 0,
        tokens: message.tokens ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        ...(message.finish === undefined ? {} : { finish: message.finish }),
        ...(message.error === undefined || message.error === null ? {} : { error: { name: "error", data: message.error } }),
      };
      messages.push({ info, parts: message.content.flatMap((item, index) => storedPart(sessionID, message.id, index, item)) });
    } else if (message.type === "compaction" && "summary" in message && typeof message.summary === "string") {
      const markerID = message.id;
      messages.push({
        info: { id: markerID, sessionID, role: "user", time: { created: message.time.created }, agent: "", model: { providerID: "", modelID: "" } },
        parts: [{ id: `prt-${markerID}`, sessionID, messageID: markerID, type: "compaction", auto: message.reason !== "manual" }],
      });
      messages.push({
        info: {
          id: `${markerID}-summary`,
          sessionID,
          role: "assistant",
          time: { created: message.time.created, completed: message.time.created },
          parentID: markerID,
          modelID: "",
          providerID: "",
          mode: "compaction",
          agent: "compaction",
          path: { cwd: "", root: "" },
          summary: true,
          cost: 0,
          tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
          finish: "stop",
        },
        parts: [{ id: `prt-${markerID}-summary`, sessionID, messageID: `${markerID}-summary`, type: "text", text: message.summary }],
      });
      parentID = markerID;
    }
  }
  return messages;
}

/** Whether a stored synthetic message is one of the plug-in's answers. */
function isAnswer(message: StoredMessage): boolean {
  const metadata = "metadata" in message ? message.metadata : undefined;
  return metadata?.["opencode-rcm"] === ANSWER_METADATA["opencode-rcm"];
}

function storedPart(sessionID: string, messageID: string, index: number, item: StoredContent): Part[] {
  const id = `prt-${messageID}-${index}`;
  if (item.type === "text" && "text" in item) return [{ id, sessionID, messageID, type: "text", text: item.text }];
  if (item.type === "reasoning" && "text" in item) return [{ id, sessionID, messageID, type: "reasoning", text: item.text }];
  if (item.type === "tool" && "state" in item)
    return [{ id, sessionID, messageID, type: "tool", callID: item.id, tool: coreToolName(item.name), state: toolState(item.state) }];
  return [];
}

function toolState(state: Extract<StoredContent, { type: "tool" }>["state"]): ToolState {
  const input = typeof state.input === "object" && state.input !== null ? (state.input as Record<string, unknown>) : {};
  const time = { start: 0, end: 0 };
  if (state.status === "completed")
    return { status: "completed", input, output: resultText(state.output ?? state.content ?? ""), title: "", metadata: {}, time };
  if (state.status === "error") return { status: "error", input, error: state.error?.message ?? "failed", time };
  return { status: "running", input, time: { start: 0 } };
}
