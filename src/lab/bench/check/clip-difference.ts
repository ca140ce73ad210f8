const BEFORE = 24;
const AFTER = 48;

/**
 * Two texts that differ, each clipped around their first difference and JSON-quoted (newlines
 * shown as \n), e.g. `"…flag, the value is \"upper\"…"` and `"…flag, the value is upper…"`.
 */
export function clipDifference(a: string, b: string): [string, string] {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const start = Math.max(0, at - BEFORE);
  const clip = (text: string): string => {
    const end = Math.min(text.length, at + AFTER);
    return `${start > 0 ? "…" : ""}${JSON.stringify(text.slice(start, end)).slice(1, -1)}${end < text.length ? "…" : ""}`;
  };
  return [`"${clip(a)}"`, `"${clip(b)}"`];
}
