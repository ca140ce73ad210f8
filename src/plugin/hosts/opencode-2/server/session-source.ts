import type { MessageWithParts } from "../../../core/messages.js";
import type { SessionSource } from "../../../sessions/session-source.js";
import type { PluginContext } from "./api.js";
import { fromStored } from "./stored-messages.js";

/** The sessions as OpenCode 2's `ctx.session` reads them (`context`: the stored messages, oldest first). */
export function contextSessionSource(session: PluginContext["session"]): SessionSource {
  const messages = async (sessionID: string): Promise<MessageWithParts[]> => fromStored(sessionID, await session.context({ sessionID }));
  return {
    async parentID(sessionID) {
      const info = await session.get({ sessionID });
      return info.parentID ?? undefined;
    },
    messages,
    async recentMessages(sessionID, limit) {
      return (await messages(sessionID)).slice(-limit);
    },
  };
}
