import type { MessageWithParts } from "../../core/messages.js";
import type { Ledger } from "../../core/routing/ledger.js";
import type { SentRequest } from "../drive/run-session.js";
import type { TimelineEntry } from "../run-dir/result-line.js";
import { metric } from "./metric.js";
import { requestMessageIDs, storedRequests } from "./stored-requests.js";

/**
 * The session's requests in order with the plug-in's routing decisions and the input tokens
 * of every model call, from the stored history as `storedRequests` splits it.
 */
export function sessionTimeline(options: {
  messages: readonly MessageWithParts[];
  requests: readonly SentRequest[];
  ledger?: Ledger | undefined;
  threshold: number;
}): { timeline: TimelineEntry[]; requestMessageIDs: (string | undefined)[] } {
  const { messages, requests, ledger, threshold } = options;
  const stored = storedRequests(messages).requests;
  const timeline = requests.map((request, index): TimelineEntry => {
    const entry: TimelineEntry = { task: request.task, stage: request.stage, continuation: request.continuation, call_input_tokens: [] };
    const found = stored[index];
    if (!found) return entry;
    const decision = ledger?.decisions[found.message.info.id];
    if (decision) Object.assign(entry, { routed_to: decision.task, confidence: decision.confidence, fallback: decision.confidence < threshold });
    entry.call_input_tokens = found.calls.map(({ info: { tokens } }) => tokens.input + tokens.cache.read + tokens.cache.write);
    return entry;
  });
  return { timeline, requestMessageIDs: requestMessageIDs(messages, requests) };
}

/** `timeline`: each request with its routing (fallbacks by the plug-in's own threshold) and its calls' input tokens. */
export const timelineMetric = metric("timeline", ({ messages, run, state, threshold }) => sessionTimeline({ messages, requests: run.requests, ledger: state.ledger, threshold }).timeline);
