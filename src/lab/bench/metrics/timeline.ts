import type { MessageWithParts } from "../../../plugin/core/messages.js";
import type { Ledger } from "../../../plugin/core/routing/ledger.js";
import type { SentRequest } from "../drive/run-session.js";
import type { TimelineEntry } from "../run-dir/result-line.js";
import { metric } from "./metric.js";
import { callInputTokens, requestMessageIDs, storedRequests } from "./stored-requests.js";

/**
 * The session's requests in order with the plug-in's routing decisions, the reported input
 * tokens of every model call and which of the calls were OpenCode's compactions (the
 * assistant message holding the summary), from the stored history as `storedRequests` splits it.
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
    entry.call_input_tokens = found.calls.map(callInputTokens);
    const compactions = found.calls.flatMap((call, position) => (call.info.summary === true ? [position] : []));
    if (compactions.length > 0) entry.compactions = compactions;
    return entry;
  });
  return { timeline, requestMessageIDs: requestMessageIDs(messages, requests) };
}

/** `timeline`: each request with its routing (fallbacks by the plug-in's own threshold), its calls' input tokens and its compactions. */
export const timelineMetric = metric(
  "timeline",
  ({ messages, run, state, threshold }) => sessionTimeline({ messages, requests: run.requests, ledger: state.ledger, threshold }).timeline,
);
