import type { ChatMessage, Reply, Responder } from "../../src/lab/scripted-model/index.js";

/** The messages of one request after `step` model turns, each a tool call answered by a tool result. */
export function conversation(userContent: unknown, step = 0, earlier: ChatMessage[] = []): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }, ...earlier, { role: "user", content: userContent }];
  for (let turn = 0; turn < step; turn++) {
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${turn}`, type: "function" }] });
    messages.push({ role: "tool", content: "ok", tool_call_id: `call_${turn}` });
  }
  return messages;
}

/** The agent's reply to these messages. */
export async function ask(agent: Responder, messages: ChatMessage[]): Promise<Reply> {
  return agent({ body: { model: "scripted", messages }, index: 0 });
}
