import type { MessageWithParts } from "../../../core/messages.js";
import type { SessionSource } from "../../../sessions/session-source.js";
import type { PluginContext } from "./api.js";
import { fromStored } from "./stored-messages.js";

/** Sessions whose compacted history this server keeps; the oldest is dropped past this many. */
const ARCHIVED_SESSIONS = 200;

export interface ContextSessionSource extends SessionSource {
  /** Keeps what a compaction is about to summarize: OpenCode 2 hands a plug-in no history older than its last compaction. */
  archive(sessionID: string, messages: readonly MessageWithParts[]): void;
  /** The session was deleted: its kept history goes. */
  forget(sessionID: string): void;
}

/**
 * The sessions as OpenCode 2's `ctx.session` reads them. `ctx.session.context` (2.0.15) returns
 * the stored messages since the last compaction only, and a plug-in has no call for the rest: the
 * history each compaction summarized is kept here as the compaction hook saw it, in memory (after
 * a restart the records alone stand for it, as they do for the model).
 */
export function contextSessionSource(session: PluginContext["session"]): ContextSessionSource {
  const archived = new Map<string, MessageWithParts[]>();
  const messages = async (sessionID: string): Promise<MessageWithParts[]> => {
    const current = fromStored(sessionID, await session.context({ sessionID }));
    const before = archived.get(sessionID);
    if (!before) return current;
    const known = new Set(current.map((message) => message.info.id));
    return [...before.filter((message) => !known.has(message.info.id)), ...current];
  };
  return {
    async parentID(sessionID) {
      const info = await session.get({ sessionID });
      return info.parentID ?? undefined;
    },
    messages,
    async recentMessages(sessionID, limit) {
      return (await messages(sessionID)).slice(-limit);
    },
    archive(sessionID, compacted) {
      const before = archived.get(sessionID) ?? [];
      const known = new Set(before.map((message) => message.info.id));
      archived.delete(sessionID);
      if (archived.size >= ARCHIVED_SESSIONS) archived.delete(archived.keys().next().value as string);
      archived.set(sessionID, [...before, ...compacted.filter((message) => !known.has(message.info.id))]);
    },
    forget(sessionID) {
      archived.delete(sessionID);
    },
  };
}
