import { messageOf } from "../../../../kit/errors/message-of.js";
import type { Rcm } from "../../../handlers/rcm.js";
import type { Logger } from "../../../sessions/logger.js";
import type { PluginContext } from "./api.js";
import type { ContextSessionSource } from "./session-source.js";
import { fromStored } from "./stored-messages.js";

/** OpenCode 2.0.15's events when a session's loop has ended its turn, however it ended. */
const TURN_ENDED = new Set(["session.execution.succeeded", "session.execution.failed", "session.execution.interrupted"]);
const SESSION_DELETED = "session.deleted";

/**
 * Follows OpenCode 2's events for as long as the server runs: a turn's end feeds its steps'
 * token counts to the memory and brings the task's record up to date (`turnEnded`); a deleted
 * session is forgotten. A failure is logged and the next event is handled.
 */
export async function followTurns(ctx: Pick<PluginContext, "event" | "session">, rcm: Rcm, source: ContextSessionSource, logger: Logger): Promise<void> {
  try {
    for await (const event of ctx.event.subscribe()) {
      const sessionID = event.data?.sessionID;
      if (typeof sessionID !== "string") continue;
      try {
        if (event.type === SESSION_DELETED) {
          // What the plug-in holds, and the history this host kept for it.
          rcm.sessionDeleted(sessionID);
          source.forget(sessionID);
        } else if (TURN_ENDED.has(event.type)) {
          const messages = fromStored(sessionID, await ctx.session.context({ sessionID }));
          const lastRequest = messages.findLastIndex((message) => message.info.role === "user");
          for (const { info } of messages.slice(lastRequest + 1)) if (info.role === "assistant") rcm.stepUpdated(info);
          await rcm.turnEnded(sessionID);
          await logger.log("debug", `${event.type}: the turn's state written, its records scheduled`, { sessionID });
        }
      } catch (error) {
        await logger.log("warn", `${event.type}: ${messageOf(error)}`, { sessionID });
      }
    }
  } catch (error) {
    await logger.log("warn", `stopped following OpenCode's events (records are then written at the next request): ${messageOf(error)}`);
  }
}
