import type { MessageWithParts } from "../../../plugin/core/messages.js";
import type { AuxUsage } from "../../../plugin/core/routing/decision.js";
import type { Ledger } from "../../../plugin/core/routing/ledger.js";
import type { SentRequest } from "../drive/run-session.js";
import { type FinishedSession, metric } from "./metric.js";
import { callInputTokens, type StoredCall, storedRequests } from "./stored-requests.js";
import { type AuxTotals, addUsage, emptyAux, emptyUsage, type Usage } from "./usage.js";

export interface SessionUsage {
  session: Usage;
  /** The focus's requests after its first stage: in a switched session, the resumed ones. */
  resumedFocus: Usage;
  aux: AuxTotals;
  resumedFocusAux: AuxTotals;
}

/**
 * Adds up tokens, model calls and tool calls from the stored history, per request as
 * `storedRequests` splits it. The plug-in's aux-model
 * cost comes from its ledger, keyed by the same user message ids, plus the memory
 * updates' aux cost, which belongs to the session as a whole (updates run between requests).
 */
export function sessionUsage(options: {
  messages: readonly MessageWithParts[];
  requests: readonly SentRequest[];
  focus: string;
  firstFocusStage: string;
  ledger?: Ledger | undefined;
  memoryAux?: readonly AuxUsage[] | undefined;
}): SessionUsage {
  const { messages, requests, focus, firstFocusStage, ledger } = options;
  const result: SessionUsage = { session: emptyUsage(), resumedFocus: emptyUsage(), aux: emptyAux(), resumedFocusAux: emptyAux() };
  for (const aux of options.memoryAux ?? []) addAux(result.aux, aux);
  const isResumedFocus = (index: number) => {
    const request = requests[index];
    return request !== undefined && request.task === focus && request.stage !== firstFocusStage;
  };
  const stored = storedRequests(messages);
  for (const call of stored.before) addUsage(result.session, callUsage(call));
  stored.requests.forEach((request, index) => {
    const resumed = isResumedFocus(index);
    const aux = ledger?.decisions[request.message.info.id]?.aux;
    if (aux) {
      addAux(result.aux, aux);
      if (resumed) addAux(result.resumedFocusAux, aux);
    }
    for (const call of request.calls) {
      const usage = callUsage(call);
      addUsage(result.session, usage);
      if (resumed) addUsage(result.resumedFocus, usage);
    }
  });
  return result;
}

/** One call's reported usage; OpenCode stores `input` without the cache reads and writes, which count here. */
function callUsage(call: StoredCall): Usage {
  const { tokens } = call.info;
  return {
    inputTokens: callInputTokens(call),
    outputTokens: tokens.output + tokens.reasoning,
    cachedInputTokens: tokens.cache.read,
    cacheWriteTokens: tokens.cache.write,
    modelCalls: 1,
    toolCalls: call.parts.filter((part) => part.type === "tool").length,
  };
}

function addAux(into: AuxTotals, aux: { calls: number; inputTokens: number; outputTokens: number; ms: number }): void {
  into.calls += aux.calls;
  into.inputTokens += aux.inputTokens;
  into.outputTokens += aux.outputTokens;
  into.ms += aux.ms;
}

/** Each finished session's usage, computed once for all the metrics that read it. */
const usages = new WeakMap<FinishedSession, SessionUsage>();

/** A finished session's usage: one computation behind four fields of the line (and the cache metric). */
export function usageOf(session: FinishedSession): SessionUsage {
  let usage = usages.get(session);
  if (!usage) {
    const { messages, run, spec, focus, state } = session;
    usage = sessionUsage({
      messages,
      requests: run.requests,
      focus: spec.focus,
      firstFocusStage: focus.task.stages[0]?.id ?? "",
      ledger: state.ledger,
      memoryAux: state.memoryAux,
    });
    usages.set(session, usage);
  }
  return usage;
}

/** `usage`: the whole session's tokens, model calls and tool calls. */
export const usageMetric = metric("usage", (session) => usageOf(session).session);
/** `resumed_focus`: the same for the focus's requests after its first stage. */
export const resumedFocusMetric = metric("resumed_focus", (session) => usageOf(session).resumedFocus);
/** `aux`: the plug-in's aux-model cost (routing and memory updates). */
export const auxMetric = metric("aux", (session) => usageOf(session).aux);
/** `resumed_focus_aux`: the aux-model cost of the resumed focus requests' routing. */
export const resumedFocusAuxMetric = metric("resumed_focus_aux", (session) => usageOf(session).resumedFocusAux);
