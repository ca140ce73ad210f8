import { appendFile } from "node:fs/promises";
import type { Hooks, Plugin, PluginModule } from "@opencode-ai/plugin";
import type { MessageWithParts, Part } from "../../../plugin/core/messages.js";
import type { ChatMessage } from "../run-dir/chat-body.js";

/**
 * A second OpenCode plug-in, loaded after opencode-rcm in bench runs whose agent is a real
 * provider's model (the scripted model logs its requests itself): at every model call it
 * appends the messages the model will get, after opencode-rcm's transform, to `logFile` in
 * the scripted model's log shape, so the fidelity and cache metrics read both alike. The
 * system prompt and the tools are not in the transform hook's view and so not recorded.
 */
const server: Plugin = async (_input, options) => {
  const logFile = typeof options?.logFile === "string" ? options.logFile : undefined;
  let queue: Promise<void> = Promise.resolve();
  const hooks: Hooks = {
    "experimental.chat.messages.transform": async (_hookInput, output) => {
      if (logFile === undefined) return;
      // Never in the way of a turn: a failed write loses one recorded call, nothing else.
      try {
        const line = `${JSON.stringify({ source: "transform", body: { messages: toChatMessages(output.messages as unknown as MessageWithParts[]) } })}\n`;
        queue = queue.then(() => appendFile(logFile, line, "utf8")).catch(() => undefined);
        await queue;
      } catch {
        // The messages could not be read as expected: skip this call.
      }
    },
  };
  return hooks;
};

/** OpenCode's messages as a provider receives them: user text; assistant text and tool calls, each tool's result after. */
export function toChatMessages(messages: readonly MessageWithParts[]): ChatMessage[] {
  const chat: ChatMessage[] = [];
  for (const message of messages) {
    const text = message.parts.flatMap((part) => (part.type === "text" && !part.ignored ? [part.text] : [])).join("\n");
    if (message.info.role === "user") {
      chat.push({ role: "user", content: text });
      continue;
    }
    const tools = message.parts.filter((part): part is Extract<Part, { type: "tool" }> => part.type === "tool");
    chat.push({
      role: "assistant",
      content: text,
      tool_calls: tools.map((part) => ({ function: { name: part.tool, arguments: JSON.stringify(part.state.input ?? {}) } })),
    });
    for (const part of tools) {
      const state = part.state;
      const result = state.status === "completed" ? state.output : state.status === "error" ? state.error : "";
      chat.push({ role: "tool", content: result });
    }
  }
  return chat;
}

const plugin: PluginModule & { id: string } = { id: "opencode-rcm-call-recorder", server };
export default plugin;
