/** A model call as the agent's provider received it (OpenAI chat-completions shape), as far as the metrics read it. */
export interface ChatBody {
  messages: ChatMessage[];
  tools?: unknown[];
}

export interface ChatMessage {
  role: string;
  content?: string | readonly { type?: string; text?: string }[] | null;
  tool_calls?: readonly { function?: { name?: string; arguments?: string } }[];
}

/** Everything of a message the model reads: its text parts and its tool calls' names and arguments. */
export function chatMessageText(message: ChatMessage): string {
  const content = message.content;
  const text = typeof content === "string" ? content : (content ?? []).map((part) => part.text ?? "").join("\n");
  const calls = (message.tool_calls ?? []).map((call) => `${call.function?.name ?? ""} ${call.function?.arguments ?? ""}`);
  return [text, ...calls].filter((piece) => piece !== "").join("\n");
}

/** The text of the last user message: the request this call works on. */
export function lastUserText(body: ChatBody): string {
  for (let at = body.messages.length - 1; at >= 0; at -= 1) {
    const message = body.messages[at];
    if (message?.role === "user") return chatMessageText(message);
  }
  return "";
}
