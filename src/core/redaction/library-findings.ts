import { lintSource } from "@secretlint/core";
import { rules as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { isTemplate } from "./references.js";
import type { SecretSpan } from "./spans.js";

const RULE_PREFIX = "@secretlint/secretlint-rule-";

// `secretlint-disable` comments in a session's text must not hide a secret from redaction.
const SKIPPED = new Set([`${RULE_PREFIX}filter-comments`]);
// Rules that read a secret from its surroundings (a key name, a URL, a key block spanning
// lines) see the whole text. The others look for a provider's token format, and their
// patterns (look-behinds with Unicode classes) run in Bun's regex interpreter, which is
// tens of times slower than V8's: they see only the lines that hold a token-like run.
const WHOLE_TEXT = new Set(["aws", "gcp", "privatekey", "basicauth", "database-connection-string", "slack", "openai"].map((name) => `${RULE_PREFIX}${name}`));

type Rule = (typeof recommended)[number];
const wholeTextRules = recommended.filter((rule) => !SKIPPED.has(rule.meta.id) && WHOLE_TEXT.has(rule.meta.id));
const tokenRules = recommended.filter((rule) => !SKIPPED.has(rule.meta.id) && !WHOLE_TEXT.has(rule.meta.id));

/** A run of token characters; one with a digit, this long, could be a credential. */
const TOKEN_RUN = /[\w.+/=-]{16,}/g;

/** The secrets that secretlint's recommended rules find in `text`. */
export async function libraryFindings(text: string): Promise<SecretSpan[]> {
  const spans = await lint(text, wholeTextRules);
  const { filtered, toOriginal } = tokenLines(text);
  if (filtered !== "") for (const span of await lint(filtered, tokenRules)) spans.push({ ...span, start: toOriginal(span.start), end: toOriginal(span.end) });
  return spans;
}

async function lint(content: string, rules: readonly Rule[]): Promise<SecretSpan[]> {
  if (rules.length === 0) return [];
  const result = await lintSource({
    source: { filePath: "/rcm-aux-request.txt", content, contentType: "text" },
    options: { config: { rules: rules.map((rule) => ({ id: rule.meta.id, rule, options: {} })) }, maskSecrets: false },
  });
  return result.messages.flatMap((message) => {
    const kind = (message.ruleId ?? "secret").replace(RULE_PREFIX, "");
    const range = narrowToPassword(content, secretRange(content, message.range, message.data));
    // Documentation's `postgres://<user>:<password>@host` is a template, not a credential.
    return isTemplate(content.slice(range.start, range.end)) ? [] : [{ ...range, kind }];
  });
}

/**
 * Where the secret itself is. Some rules report a range that starts at the key's name with
 * the secret's length (aws); the secret's own text, in the message data, says where it is.
 */
function secretRange(content: string, range: readonly [number, number], data: unknown): { start: number; end: number } {
  const values = data && typeof data === "object" ? Object.values(data).filter((value): value is string => typeof value === "string" && value.length >= 8) : [];
  for (const value of values.sort((a, b) => b.length - a.length)) {
    const at = content.indexOf(value, Math.max(0, range[0] - value.length));
    if (at >= 0 && at <= range[1]) return { start: at, end: at + value.length };
  }
  return { start: range[0], end: range[1] };
}

/** A connection string keeps its scheme, user and host: only its password is the secret. */
function narrowToPassword(content: string, range: { start: number; end: number }): { start: number; end: number } {
  const password = /^[a-z][\w+.-]*:\/\/[^\s:@/]*:([^\s@/]+)@/di.exec(content.slice(range.start, range.end));
  const at = password?.indices?.[1];
  return at ? { start: range.start + at[0], end: range.start + at[1] } : range;
}

/** The lines of `text` that hold a token-like run, joined, with a map back to `text`'s offsets. */
function tokenLines(text: string): { filtered: string; toOriginal: (offset: number) => number } {
  const starts: number[] = [];
  const origins: number[] = [];
  let filtered = "";
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (hasTokenRun(line)) {
      starts.push(filtered.length);
      origins.push(lineStart);
      filtered += `${line}\n`;
    }
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  const toOriginal = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return (origins[low] ?? 0) + offset - (starts[low] ?? 0);
  };
  return { filtered, toOriginal };
}

function hasTokenRun(line: string): boolean {
  TOKEN_RUN.lastIndex = 0;
  for (let found = TOKEN_RUN.exec(line); found !== null; found = TOKEN_RUN.exec(line)) if (/\d/.test(found[0])) return true;
  return false;
}
