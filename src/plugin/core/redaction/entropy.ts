import { isReference, isWordsIdentifier } from "./references.js";
import type { SecretSpan } from "./spans.js";

/**
 * The last resort: a long random-looking token on a line that speaks of credentials. Both
 * gates must hold, so hashes, ids and digests in ordinary lines survive.
 */
const CONTEXT = /secret|token|passw|credential|api[-_ ]?key|\b(?:auth\w*|private[-_ ]?key|access[-_ ]?key|signing|bearer|session\w*)\b/i;
// Digests name their algorithm: go.sum's h1:, SRI's sha512-, docker's sha256:.
const DIGEST_BEFORE = /(?:\bh\d:|\bsha\d*[-:=]|\bmd5[-:=])$/i;
// A placeholder's or a variable's name (`${oauth2AccessTokenV2}`, `{{ apiToken2 }}`, `%GithubToken2%`,
// `$this->apiToken2`) can read as random; a name is made of words (isWordsIdentifier), a key is not.
const PLACEHOLDER_BEFORE = /(?:[$%<@]|\{\s*|env:|->|\[["']|%\()$/;
const TOKEN = /(?<![\w+/=.-])[A-Za-z0-9+/_-]{24,}={0,2}(?![\w+/=.-])/g;
const MIN_BITS_PER_CHAR = 3.8;

export function entropyFindings(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    if (CONTEXT.test(line)) {
      TOKEN.lastIndex = 0;
      for (let found = TOKEN.exec(line); found !== null; found = TOKEN.exec(line)) {
        if (!isRandom(found[0]) || DIGEST_BEFORE.test(line.slice(0, found.index))) continue;
        if (PLACEHOLDER_BEFORE.test(line.slice(Math.max(0, found.index - 8), found.index)) && isWordsIdentifier(found[0])) continue;
        spans.push({ start: lineStart + found.index, end: lineStart + found.index + found[0].length, kind: "high-entropy" });
      }
    }
    lineStart += line.length + 1;
  }
  return spans;
}

function isRandom(token: string): boolean {
  if (isReference(token) || /^[0-9a-f-]+$/i.test(token) || /^[A-Z_]+$|^[a-z_]+$/.test(token)) return false;
  // Identifiers made of words (snake_case, kebab-case, CamelCase) are names, not keys.
  if (/^[A-Za-z]+(?:[_-][A-Za-z]+)+$/.test(token) || /^(?:[A-Z]?[a-z]+)+$/.test(token)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(token)).length;
  return classes >= 3 && bitsPerChar(token) >= MIN_BITS_PER_CHAR;
}

function bitsPerChar(token: string): number {
  const counts = new Map<string, number>();
  for (const char of token) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / token.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
