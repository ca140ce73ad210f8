import { messageOf } from "../../../../kit/errors/message-of.js";
import type { Rcm } from "../../../handlers/rcm.js";
import type { Logger } from "../../../sessions/logger.js";
import type { PluginContext } from "./api.js";
import { fromStored } from "./stored-messages.js";

/** OpenCode 2.0.15's event when a session's loop has ended its turn (also `.failed`, `.interrupted`). */
const TURN_ENDED = /^session\.execution\.(succeeded|failed|interrupted|cancelled)$/;
const SESSION_DELETED = /^session\.(deleted|removed)$/;

/**
 * Follows OpenCode 2's events for as long as the server runs: a turn's end feeds its steps'
 * token counts to the memory and brings the task's record up to date (`turnEnded`); a deleted
 * session is forgotten. A failure is logged and the next event is handled.
 */
export async function followTurns(ctx: Pick<PluginContext, "event" | "session">, rcm: Rcm, logger: Logger): Promise<void> {
  try {
    for await (const event of ctx.event.subscribe()) {
      const sessionID = event.data?.sessionID;
      if (typeof sessionID !== "string") continue;
      try {
        if (SESSION_DELETED.test(event.type)) rcm.sessionDeleted(sessionID);
        else if (TURN_ENDED.test(event.type)) {
          const messages = fromStored(sessionID, await ctx.session.context({ sessionID }));
          const lastRequest = messages.findLastIndex((message) => message.info.role === "user");
          for (const { info } of messages.slice(lastRequest + 1)) if (info.role === "assistant") rcm.stepUpdated(info);
          await rcm.turnEnded(sessionID);
        }
      } catch (error) {
        await logger.log("warn", `${event.type}: ${messageOf(error)}`, { sessionID });
      }
    }
  } catch (error) {
    await logger.log("warn", `stopped following OpenCode's events (records are then written at the next request): ${messageOf(error)}`);
  }
}
