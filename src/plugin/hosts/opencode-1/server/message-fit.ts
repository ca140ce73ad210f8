import type { Message as OpencodeMessage, Part as OpencodePart, TextPart as OpencodeTextPart } from "@opencode-ai/sdk/v2";
import type { Message, MessageWithParts, Part, TextPart } from "../../../core/messages.js";

// OpenCode 1.18 stores its v2 message model; the plug-in reads its own declarations of it
// (core/messages.ts). These fail to compile when an SDK update moves a shape the plug-in reads,
// or when a text part the plug-in writes would no longer be one OpenCode accepts.
type Fits<A, B> = [A] extends [B] ? true : false;
const messagesFit: Fits<OpencodeMessage, Message> & Fits<OpencodePart, Part> & Fits<TextPart, OpencodeTextPart> = true;
void messagesFit;

/**
 * The messages of `experimental.chat.messages.transform`'s output, as the plug-in reads them.
 * The hook's declared types are the stale v1 shapes; the runtime objects are v2, which fit.
 */
export function asMessages(output: unknown): MessageWithParts[] {
  return (output as { messages: MessageWithParts[] }).messages;
}
