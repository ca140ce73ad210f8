import { userRequestText } from "../../core/interaction-groups.js";
import type { MessageWithParts } from "../../core/messages.js";
import type { Ledger } from "../../core/routing/ledger.js";
import type { SentRequest } from "../drive/run-session.js";
import type { TimelineEntry } from "../results/result-line.js";

/**
 * The session's requests in order with the plug-in's routing decisions and the input tokens
 * of every model call, from the stored history: user messages with the user's own text are
 * the requests (as in `sessionUsage`); assistant messages after one are its calls.
 */
export function sessionTimeline(options: {
  messages: readonly MessageWithParts[];
  requests: readonly SentRequest[];
  ledger?: Ledger | undefined;
  threshold: number;
}): { timeline: TimelineEntry[]; requestMessageIDs: (string | undefined)[] } {
  const { messages, requests, ledger, threshold } = options;
  const timeline: TimelineEntry[] = requests.map((request) => ({ task: request.task, stage: request.stage, continuation: request.continuation, call_input_tokens: [] }));
  const requestMessageIDs: (string | undefined)[] = requests.map(() => undefined);
  let index = -1;
  for (const message of messages) {
    if (message.info.role === "user") {
      if (userRequestText(message.parts) === "") continue;
      index += 1;
      const entry = timeline[index];
      if (!entry) continue;
      requestMessageIDs[index] = message.info.id;
      const decision = ledger?.decisions[message.info.id];
      if (decision) {
        entry.routed_to = decision.task;
        entry.confidence = decision.confidence;
        entry.fallback = decision.confidence < threshold;
      }
      continue;
    }
    const { input, cache } = message.info.tokens;
    timeline[index]?.call_input_tokens.push(input + cache.read + cache.write);
  }
  return { timeline, requestMessageIDs };
}
