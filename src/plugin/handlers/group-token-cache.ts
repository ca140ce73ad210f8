import { sumOfMessages } from "../core/context/call-report.js";
import type { InteractionGroup } from "../core/interaction-groups.js";
import type { MessageWithParts } from "../core/messages.js";
import type { LiveSession } from "../sessions/live-session.js";

// Enough for a long session; past it the session's cache starts again rather than grow.
const MAX_ENTRIES = 100_000;

/**
 * A finished group's token estimate, computed once: OpenCode re-reads every message for
 * every model call, but a group that is not the latest no longer changes (known by its id
 * and size). Without it the per-call report costs more than the transform itself. Kept on the
 * session (`LiveSession.groupTokens`).
 */
export function cachedGroupTokens(session: Pick<LiveSession, "groupTokens">): (group: InteractionGroup, messages: readonly MessageWithParts[]) => number {
  // By group id (no key string built per group and call): the size it had and its tokens.
  const cache = session.groupTokens;
  return (group, messages) => {
    const size = group.indices.length;
    const known = cache.get(group.id);
    if (known?.size === size) return known.tokens;
    const tokens = sumOfMessages(group, messages);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(group.id, { size, tokens });
    return tokens;
  };
}
