/** What a stretch of a session cost, as the model reported it (OpenCode's stored usage). */
export interface Usage {
  /** All input tokens, cached included. */
  inputTokens: number;
  /** Reasoning included. */
  outputTokens: number;
  /** Of the input tokens, cache reads. */
  cachedInputTokens: number;
  /** Of the input tokens, cache writes. */
  cacheWriteTokens: number;
  modelCalls: number;
  toolCalls: number;
}

export interface AuxTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  ms: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, modelCalls: 0, toolCalls: 0 };
}

export function emptyAux(): AuxTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0 };
}

export function addUsage(into: Usage, add: Usage): void {
  into.inputTokens += add.inputTokens;
  into.outputTokens += add.outputTokens;
  into.cachedInputTokens += add.cachedInputTokens;
  into.cacheWriteTokens += add.cacheWriteTokens;
  into.modelCalls += add.modelCalls;
  into.toolCalls += add.toolCalls;
}
