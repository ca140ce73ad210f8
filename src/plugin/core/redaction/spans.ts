/** Where a secret sits in a text, and what kind it is (kept in the marker). */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

export const MARKER_PREFIX = "[REDACTED:";

function marker(kind: string): string {
  return `${MARKER_PREFIX}${kind}]`;
}

/**
 * Overlapping or touching spans become one, so replacements never nest and never cut a
 * secret in two; the merged span keeps the kind of its longest part (ties: the first found).
 */
function mergeSpans(spans: readonly SecretSpan[]): SecretSpan[] {
  const sorted = spans.filter((span) => span.end > span.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: (SecretSpan & { longest: number })[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) {
      if (span.end - span.start > last.longest) {
        last.kind = span.kind;
        last.longest = span.end - span.start;
      }
      last.end = Math.max(last.end, span.end);
    } else merged.push({ ...span, longest: span.end - span.start });
  }
  return merged.map(({ start, end, kind }) => ({ start, end, kind }));
}

/** `text` with each span replaced by its marker. */
export function replaceSpans(text: string, spans: readonly SecretSpan[]): string {
  let result = "";
  let copied = 0;
  for (const span of mergeSpans(spans)) {
    result += text.slice(copied, span.start) + marker(span.kind);
    copied = span.end;
  }
  return result + text.slice(copied);
}

/** The spans of a global regex's group `group` (its first occurrence inside the match). */
export function groupSpans(text: string, re: RegExp, kind: string, group = 1, accept?: (value: string, match: RegExpExecArray) => boolean): SecretSpan[] {
  const spans: SecretSpan[] = [];
  re.lastIndex = 0;
  for (let found = re.exec(text); found !== null; found = re.exec(text)) {
    if (found[0] === "") re.lastIndex += 1;
    const value = found[group];
    if (value === undefined || value === "" || (accept && !accept(value, found))) continue;
    const start = found.indices?.[group]?.[0] ?? found.index + found[0].indexOf(value);
    spans.push({ start, end: start + value.length, kind });
  }
  return spans;
}
