/**
 * Words typed to the plug-in rather than to the model: "/rcm status", "show t1", "move 3 t2".
 * They ask nothing of the work, so no record keeps them. A bare verb counts only with a task
 * or request reference (or alone), so "show the diff" is not one. The verbs are `/rcm`'s
 * (session-views/rcm-verbs.ts; a unit test keeps the two lists the same).
 */
export const PLUGIN_VERBS = ["status", "why", "tasks", "show", "move", "off", "on", "split", "resume", "done", "drop"] as const;

const REFERENCE = String.raw`(?:(?:[A-Za-z0-9_-]+/)?t\d+|\d+(?:-\d+|\.\.)?|new|task \d+)`;
const TYPED = new RegExp(String.raw`^(?:${PLUGIN_VERBS.join("|")})(?:\s+${REFERENCE})*\s*[.!]?$`, "i");

export function isPluginCommand(text: string): boolean {
  const line = text.trim();
  if (/^\/rcm(?:-text)?\b/i.test(line)) return true;
  return /^(?:status|why|tasks)$/i.test(line) || (TYPED.test(line) && new RegExp(`\\s${REFERENCE}`, "i").test(line));
}
