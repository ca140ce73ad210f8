import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";

/** A session's usage in the shape results.jsonl keeps: small, round numbers. */
const USAGE = { inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, modelCalls: 2, toolCalls: 1 };
/** No aux-model use. */
const NO_AUX = { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0 };

/** A results.jsonl line: one resolved switched native session, with `extra` over it. */
export function resultLine(extra: Partial<ResultLine> = {}): ResultLine {
  return {
    session_id: "s1",
    mode: "native",
    focus: "F",
    condition: "switched",
    locality: "near",
    resolved: true,
    failure_class: "resolved",
    finalized: true,
    budget_exhausted: false,
    continuations: 0,
    usage: USAGE,
    resumed_focus: USAGE,
    aux: NO_AUX,
    resumed_focus_aux: NO_AUX,
    wall_ms: 1000,
    opencode_session_id: "ses",
    focus_workspace: "ws1",
    patch_bytes: 10,
    ...extra,
  };
}
