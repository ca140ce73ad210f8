import { sumOfMessages } from "../../core/context/call-report.js";
import type { InteractionGroup } from "../../core/interaction-groups.js";
import type { MessageWithParts } from "../../core/messages.js";

// Enough for several long sessions; past it the cache starts again rather than grow.
const MAX_ENTRIES = 100_000;

/**
 * A finished group's token estimate, computed once: OpenCode re-reads every message for
 * every model call, but a group that is not the latest no longer changes (keyed by its id
 * and size). Without it the per-call report costs more than the transform itself.
 */
export function cachedGroupTokens(): (group: InteractionGroup, messages: readonly MessageWithParts[]) => number {
  const cache = new Map<string, number>();
  return (group, messages) => {
    const key = `${group.sessionID}\u0000${group.id}\u0000${group.indices.length}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const tokens = sumOfMessages(group, messages);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, tokens);
    return tokens;
  };
}
