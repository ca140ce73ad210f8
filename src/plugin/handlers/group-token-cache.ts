import { sumOfMessages } from "../core/context/call-report.js";
import type { InteractionGroup } from "../core/interaction-groups.js";
import type { MessageWithParts } from "../core/messages.js";

// Enough for several long sessions; past it the cache starts again rather than grow.
const MAX_ENTRIES = 100_000;

/**
 * A finished group's token estimate, computed once: OpenCode re-reads every message for
 * every model call, but a group that is not the latest no longer changes (known by its id
 * and size). Without it the per-call report costs more than the transform itself.
 */
export function cachedGroupTokens(): (group: InteractionGroup, messages: readonly MessageWithParts[]) => number {
  // Per session, per group id (no key string built per group and call): the size it had and its tokens.
  const cache = new Map<string, Map<string, { size: number; tokens: number }>>();
  let entries = 0;
  return (group, messages) => {
    const size = group.indices.length;
    const known = cache.get(group.sessionID)?.get(group.id);
    if (known?.size === size) return known.tokens;
    const tokens = sumOfMessages(group, messages);
    if (entries >= MAX_ENTRIES) {
      cache.clear();
      entries = 0;
    }
    let session = cache.get(group.sessionID);
    if (!session) {
      session = new Map();
      cache.set(group.sessionID, session);
    }
    if (!session.has(group.id)) entries += 1;
    session.set(group.id, { size, tokens });
    return tokens;
  };
}
