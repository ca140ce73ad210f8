/**
 * A provider's prompt cache, simulated on token sequences: a request reuses the longest
 * prefix it shares with an earlier request of the same session, counted in whole blocks and
 * only from a minimum length on (OpenAI-style: 1,024 tokens, 128-token blocks).
 */
export interface PrefixCacheOptions {
  minTokens: number;
  blockTokens: number;
}

export const OPENAI_STYLE_CACHE: PrefixCacheOptions = { minTokens: 1024, blockTokens: 128 };

export interface CachedRequest {
  input: number;
  cached: number;
}

/**
 * For each request of one session, in order: its input length and how much of it was cached,
 * in the units of the sequences (tokens, or characters with the options scaled to match).
 */
export function simulatePrefixCache(requests: readonly ArrayLike<unknown>[], options: PrefixCacheOptions = OPENAI_STYLE_CACHE): CachedRequest[] {
  return requests.map((tokens, index) => {
    let longest = 0;
    for (let earlier = 0; earlier < index; earlier += 1) longest = Math.max(longest, commonPrefix(tokens, requests[earlier] ?? ""));
    const blocks = Math.floor(longest / options.blockTokens) * options.blockTokens;
    return { input: tokens.length, cached: blocks >= options.minTokens ? blocks : 0 };
  });
}

/** What the input costs, in uncached-token units, when a cached token is billed at `readRatio`. */
export function inputCost(requests: readonly CachedRequest[], readRatio: number): number {
  return requests.reduce((sum, request) => sum + (request.input - request.cached) + request.cached * readRatio, 0);
}

function commonPrefix(a: ArrayLike<unknown>, b: ArrayLike<unknown>): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at < limit && a[at] === b[at]) at += 1;
  return at;
}
