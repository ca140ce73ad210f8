const MAX_TITLE = 60;

/**
 * A short, deterministic title for a task, from the request that opened it: the first
 * sentence without a leading workspace path, cut at a word boundary.
 */
export function taskTitle(requestText: string): string {
  const text = requestText
    .replace(/^\s*(?:in\s+)?\/[^\s:,]+[:,]?\s*/i, "")
    .replace(/\s+/g, " ")
    .trim();
  const sentence = (text.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? text).replace(/[.!?]$/, "");
  if (sentence.length <= MAX_TITLE) return sentence || "untitled task";
  const cut = sentence.slice(0, MAX_TITLE);
  const space = cut.lastIndexOf(" ");
  return `${(space > 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
