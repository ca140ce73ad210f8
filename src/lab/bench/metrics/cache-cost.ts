import { CHARS_PER_TOKEN, tokensForChars } from "../../../plugin/core/memory/estimate-tokens.js";
import type { ChatBody } from "../run-dir/chat-body.js";
import type { CacheTokens } from "../run-dir/result-line.js";
import { metric } from "./metric.js";
import { OPENAI_STYLE_CACHE, simulatePrefixCache } from "./prefix-cache.js";
import { usageOf } from "./session-usage.js";
import type { Usage } from "./usage.js";

/** What a cached input token costs against an uncached one when nothing else is said (OpenAI's and Anthropic's reads: 0.1x). */
export const DEFAULT_CACHE_READ_PRICE = 0.1;

/** Input cost in uncached-token units: uncached tokens at 1, cached reads at `readPrice`. */
export function cacheAwareCost(cache: CacheTokens, readPrice: number): number {
  return cache.input_tokens - cache.cached_tokens + cache.cached_tokens * readPrice;
}

/**
 * The provider's reported counts when it reported any cache use; otherwise an estimate: a
 * simulation over the recorded calls, if there are any.
 */
export function sessionCacheTokens(usage: Usage, calls: readonly ChatBody[]): CacheTokens | undefined {
  if (usage.cachedInputTokens + usage.cacheWriteTokens > 0) {
    return { source: "provider", input_tokens: usage.inputTokens, cached_tokens: usage.cachedInputTokens };
  }
  if (calls.length === 0) return undefined;
  return simulatedCacheTokens(calls);
}

/**
 * OpenAI-style prefix caching (1,024-token minimum, 128-token blocks) replayed over a session's
 * calls in order, each reusing the longest prefix it shares with an earlier call. A call is
 * serialised as a provider sees it (tools, then each message); lengths are characters turned
 * into tokens with the plug-in's estimate, so the figures are estimates on the same scale.
 */
export function simulatedCacheTokens(calls: readonly ChatBody[]): CacheTokens {
  const perToken = CHARS_PER_TOKEN;
  const texts = calls.map((body) => [JSON.stringify(body.tools ?? []), ...body.messages.map((message) => JSON.stringify(message))].join("\n"));
  const cached = simulatePrefixCache(texts, {
    minTokens: Math.ceil(OPENAI_STYLE_CACHE.minTokens * perToken),
    blockTokens: Math.ceil(OPENAI_STYLE_CACHE.blockTokens * perToken),
  });
  return {
    source: "simulated",
    input_tokens: cached.reduce((sum, call) => sum + tokensForChars(call.input), 0),
    cached_tokens: cached.reduce((sum, call) => sum + Math.floor(call.cached / perToken), 0),
  };
}

/** `cache`: the input tokens and how many were cache reads, as the provider counted them or simulated over the recorded calls. */
export const cacheMetric = metric("cache", (session) =>
  // A provider model's calls are recorded without the system prompt and tools, too short a prefix to simulate caching on.
  sessionCacheTokens(usageOf(session).session, session.agentKind === "model" ? [] : session.calls),
);
