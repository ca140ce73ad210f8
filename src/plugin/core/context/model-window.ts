import type { MessageWithParts } from "../messages.js";

/** A model's limits as OpenCode knows them (its provider's `limit`). */
export interface ModelLimits {
  context: number;
  output: number;
  input?: number | undefined;
}

// OpenCode 1.18's own constants (session/overflow.ts, provider/transform.ts).
const OUTPUT_TOKEN_MAX = 32_000;
const COMPACTION_BUFFER = 20_000;

/**
 * The tokens a step may use (prompt plus output, as the provider reports them) before OpenCode
 * compacts the session, computed as OpenCode 1.18 computes it; undefined when it never
 * compacts (a model without a context limit). `reserved` is the config's `compaction.reserved`.
 */
export function compactionThreshold(limits: ModelLimits, reserved?: number): number | undefined {
  if (limits.context <= 0) return undefined;
  const maxOutput = Math.min(limits.output > 0 ? limits.output : OUTPUT_TOKEN_MAX, OUTPUT_TOKEN_MAX);
  if (limits.input) return Math.max(0, limits.input - (reserved ?? Math.min(COMPACTION_BUFFER, maxOutput)));
  return Math.max(0, limits.context - maxOutput);
}

/** A finished model step's usage, as OpenCode stored it on the assistant message. */
export interface StepUsage {
  /** Everything the provider read: uncached input plus cache reads and writes. */
  prompt: number;
  /** Output and reasoning. */
  output: number;
}

/** The usage of each finished, non-summary assistant step in `messages`, oldest first. */
export function stepUsages(messages: readonly MessageWithParts[]): StepUsage[] {
  const out: StepUsage[] = [];
  for (const message of messages) {
    const info = message.info;
    if (info.role !== "assistant" || info.summary === true) continue;
    const tokens = info.tokens;
    const prompt = tokens.input + tokens.cache.read + tokens.cache.write;
    if (prompt > 0) out.push({ prompt, output: tokens.output + tokens.reasoning });
  }
  return out;
}
