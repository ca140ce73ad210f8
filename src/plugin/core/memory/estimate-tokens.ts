/**
 * A deterministic, dependency-free token estimate for budgets inside the plug-in. About
 * 3.5 characters per token errs on the high side for English and code with the common
 * BPE vocabularies, so a budget computed with it is rarely exceeded.
 */
export const CHARS_PER_TOKEN = 3.5;

export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

/** The same estimate for a length already counted. */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
