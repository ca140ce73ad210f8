import { createHash } from "node:crypto";

/**
 * Role-neutral workspace names for a session's tasks: ws1..wsN in an order shuffled by the
 * seed and the session id, so nothing in a path says which task is the focus.
 */
export function workspaceNames(taskIDs: readonly string[], options: { seed: number; sessionID: string }): Map<string, string> {
  const order = taskIDs
    .map((task) => ({ task, key: createHash("sha256").update(`${options.seed}\u0000${options.sessionID}\u0000${task}`).digest("hex") }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return new Map(order.map(({ task }, index) => [task, `ws${index + 1}`]));
}
