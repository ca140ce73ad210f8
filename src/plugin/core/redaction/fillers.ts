import type { SecretSpan } from "./spans.js";

/** Words and runs that stand where a secret would go in docs, examples and masked output. */
const FILLER =
  /^(?:\[?REDACTED\]?|\*+|•+|x{4,}|X{4,}|\.{3}|…|changeme|change-me|replace[-_]?me|your[_-][\w-]+|[\w-]*[_-]here|example[\w-]*|placeholder|dummy|redacted|secret|password|token|none|null|nil|undefined|true|false)$/i;

// A provider's prefix then filler: how docs and `.env.example` files show a key's shape with no
// key in it (`sk-...`, `sk-proj-...`, `ghp_xxxx`, `xoxb-xxxx-xxxx`, `sk-your-key-here`). The
// prefix is short words (a real key's random body is longer than 12 characters a part), the
// filler comes after a separator, and at most 4 characters follow it (a masked `sk-...wxyz`
// shows no more of a key than its last four). Fillers after the first need a `-` or `_`, so
// a long run splits one way only (no backtracking blow-up).
const MASK = String.raw`(?:\.{3,}|…|[xX]{3,}|\*{3,}|•{3,}|<[^<>\s]+>|your[-_][\w-]+)`;
const PREFIXED = new RegExp(`^[A-Za-z][A-Za-z0-9]{0,11}(?:[-_.][A-Za-z0-9]{1,12}){0,3}[-_.]${MASK}(?:[-_]${MASK})*[A-Za-z0-9]{0,4}$`);
// A prefix of letters glued to its filler: `AKIA...`, `AIza...`, `AKIAXXXXXXXXXXXXXXXX`.
const GLUED = /^[A-Za-z]{2,8}(?:\.{3,}|…|X{8,}|x{8,}|\*{8,})$/;

// A masked key is no longer than a key: a longer value is not tested (the patterns are not linear).
const MAX_MASKED = 256;
// Every masked shape holds one of these: most values are tested by this alone (it runs often).
const MASK_HINT = /\.\.\.|…|xxx|\*\*\*|•••|<|your[-_]/i;

/** A value that stands in for a secret and holds none: `changeme`, `***`, `sk-...`, `ghp_xxxx`. */
export function isFiller(value: string): boolean {
  return FILLER.test(value) || (value.length <= MAX_MASKED && MASK_HINT.test(value) && (PREFIXED.test(value) || GLUED.test(value)));
}

/**
 * `spans` without those whose whole text is filler: a token format or a library rule that
 * matches `ghp_` plus 36 x's has found a placeholder, not a key.
 */
export function withoutFillers(text: string, spans: readonly SecretSpan[]): SecretSpan[] {
  return spans.filter((span) => !isFiller(text.slice(span.start, span.end)));
}
