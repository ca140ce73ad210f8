import type { AssistantMessage } from "@opencode-ai/sdk/v2";
import { userRequestText } from "../../../plugin/core/interaction-groups.js";
import type { MessageWithParts } from "../../../plugin/core/messages.js";

/** A model call as stored: an assistant message. */
export type StoredCall = MessageWithParts & { info: AssistantMessage };

/** A call's input tokens as reported, cached included: OpenCode stores `input` without the cache reads and writes. */
export function callInputTokens(call: StoredCall): number {
  const { tokens } = call.info;
  return tokens.input + tokens.cache.read + tokens.cache.write;
}

/** A request as stored: the user's message and the model calls that followed it. */
export interface StoredRequest {
  message: MessageWithParts;
  calls: StoredCall[];
}

/**
 * The stored history split at the requests: user messages with the user's own text, in the
 * order they were sent; every assistant message after one (steps, compaction, the answers to
 * synthetic continues) is one of its calls. Other user messages (synthetic continues, the
 * /rcm answers) are no requests and no calls.
 */
export function storedRequests(messages: readonly MessageWithParts[]): { before: StoredCall[]; requests: StoredRequest[] } {
  const before: StoredCall[] = [];
  const requests: StoredRequest[] = [];
  for (const message of messages) {
    if (message.info.role === "user") {
      if (userRequestText(message.parts) !== "") requests.push({ message, calls: [] });
      continue;
    }
    (requests.at(-1)?.calls ?? before).push(message as StoredCall);
  }
  return { before, requests };
}

/** The stored user message id of each sent request, in order (undefined where the history has fewer requests). */
export function requestMessageIDs(messages: readonly MessageWithParts[], requests: readonly unknown[]): (string | undefined)[] {
  const stored = storedRequests(messages).requests;
  return requests.map((_request, index) => stored[index]?.message.info.id);
}
