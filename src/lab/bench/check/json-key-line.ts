/**
 * The 1-based line of the key at `path` in a JSON text (each key searched after the previous
 * one, as written by JSON.stringify); 0 when a key is not found.
 */
export function jsonKeyLine(text: string, path: readonly string[]): number {
  let from = 0;
  for (const key of path) {
    const pattern = new RegExp(`${escapeRegExp(JSON.stringify(key))}\\s*:`, "g");
    pattern.lastIndex = from;
    const found = pattern.exec(text);
    if (found === null) return 0;
    from = found.index + found[0].length;
  }
  return text.slice(0, from).split("\n").length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
