import type { MessageWithParts } from "../../../plugin/core/messages.js";
import type { FaithfulDecision } from "../agent/faithful-agent.js";
import type { Checkout } from "../checkout/prepare-checkouts.js";
import type { SessionRun } from "../drive/run-session.js";
import type { ChatBody } from "../run-dir/chat-body.js";
import type { ResultLine } from "../run-dir/result-line.js";
import type { SessionSpec } from "../suite/schema.js";
import type { PluginState } from "./plugin-state.js";

/** Everything a metric may read about a session once its requests are done (before scoring). */
export interface FinishedSession {
  spec: SessionSpec;
  /** What the driver sent and how the session went. */
  run: SessionRun;
  /** OpenCode's stored history of the session. */
  messages: readonly MessageWithParts[];
  /** The plug-in's state for the session, read read-only; empty when it kept none. */
  state: PluginState;
  /** The session's model calls as the agent's model received them (the scripted model's log, or the call recorder's); empty when none were recorded. */
  calls: readonly ChatBody[];
  /** The faithful agent's decisions; empty for the other agents. */
  decisions: readonly FaithfulDecision[];
  /** Every task's checkout, by task id. */
  checkouts: ReadonlyMap<string, Checkout>;
  /** The focus task's checkout. */
  focus: Checkout;
  /** Who did the work: `model` for a provider's model (its recorded calls lack the system prompt and tools). */
  agentKind: "scripted" | "faithful" | "model";
  /** The confidence threshold the plug-in ran with: a routed request below it got the full history. */
  threshold: number;
}

/**
 * One bench metric: what it computes from a finished session, and the one field of the result
 * line (`ResultLineSchema` in run-dir/result-line.ts) it fills. `measure` returning undefined
 * leaves an optional field out of the line.
 */
export interface Metric<F extends keyof ResultLine> {
  field: F;
  measure(session: FinishedSession): ResultLine[F];
}

export function metric<F extends keyof ResultLine>(field: F, measure: (session: FinishedSession) => ResultLine[F]): Metric<F> {
  return { field, measure };
}
