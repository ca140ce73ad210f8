import { userRequestText } from "../../core/interaction-groups.js";
import type { MessageWithParts } from "../../core/messages.js";
import type { AuxUsage } from "../../core/routing/decision.js";
import type { Ledger } from "../../core/routing/ledger.js";
import type { SentRequest } from "../drive/run-session.js";
import { addUsage, emptyAux, emptyUsage, type AuxTotals, type Usage } from "./usage.js";

export interface SessionUsage {
  session: Usage;
  /** The focus's requests after its first stage: in a switched session, the resumed ones. */
  resumedFocus: Usage;
  aux: AuxTotals;
  resumedFocusAux: AuxTotals;
}

/**
 * Adds up tokens, model calls and tool calls from the stored history. User messages with
 * the user's own text are the requests, in the order they were sent; everything after one
 * (assistant steps, compaction, synthetic continues) counts for it. The plug-in's aux-model
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
  let requestIndex = -1;
  const isResumedFocus = (index: number) => {
    const request = requests[index];
    return request !== undefined && request.task === focus && request.stage !== firstFocusStage;
  };
  for (const message of messages) {
    if (message.info.role === "user") {
      if (userRequestText(message.parts) !== "") {
        requestIndex += 1;
        const aux = ledger?.decisions[message.info.id]?.aux;
        if (aux) {
          addAux(result.aux, aux);
          if (isResumedFocus(requestIndex)) addAux(result.resumedFocusAux, aux);
        }
      }
      continue;
    }
    const usage = emptyUsage();
    const tokens = message.info.tokens;
    usage.inputTokens = tokens.input;
    usage.outputTokens = tokens.output + tokens.reasoning;
    usage.cacheReadTokens = tokens.cache.read;
    usage.cacheWriteTokens = tokens.cache.write;
    usage.modelCalls = 1;
    usage.toolCalls = message.parts.filter((part) => part.type === "tool").length;
    addUsage(result.session, usage);
    if (isResumedFocus(requestIndex)) addUsage(result.resumedFocus, usage);
  }
  return result;
}

function addAux(into: AuxTotals, aux: { calls: number; inputTokens: number; outputTokens: number; ms: number }): void {
  into.calls += aux.calls;
  into.inputTokens += aux.inputTokens;
  into.outputTokens += aux.outputTokens;
  into.ms += aux.ms;
}
