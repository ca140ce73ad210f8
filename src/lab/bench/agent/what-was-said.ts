import { type ChatMessage, messageText } from "../../scripted-model/index.js";

// What a call showed the model in words: the text of its system, user and assistant messages
// (requests, summaries, memory records, replies), normalized so that a rule is found however it
// was quoted. Tool calls and tool results are left out: code the agent wrote earlier is not a
// requirement it was given.

/** Lower case, backticks dropped, every run of whitespace one space. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/`/g, "").replace(/\s+/g, " ").trim();
}

/** The normalized words of a call's messages, for `mentions`. */
export function whatWasSaid(messages: readonly ChatMessage[]): string {
  return messages
    .filter((message) => message.role === "system" || message.role === "user" || message.role === "assistant")
    .map((message) => normalizeText(messageText(message.content)))
    .filter((text) => text !== "")
    .join("\n");
}

/** Whether the said text states `phrase` (compared normalized). */
export function mentions(said: string, phrase: string): boolean {
  return said.includes(normalizeText(phrase));
}
