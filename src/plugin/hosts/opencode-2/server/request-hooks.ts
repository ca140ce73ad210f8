import { messageOf } from "../../../../kit/errors/message-of.js";
import type { MessageWithParts } from "../../../core/messages.js";
import type { Rcm } from "../../../handlers/rcm.js";
import type { Logger } from "../../../sessions/logger.js";
import type { ContextMessage, RequestEvent } from "./api.js";
import { fromContext } from "./context-messages.js";
import { isAnswerText } from "./rcm-commands.js";
import type { ContextSessionSource } from "./session-source.js";

/** Requests already routed by this server (a turn's later calls carry the same one); forgotten past this many. */
const REMEMBERED = 5000;

/**
 * `ctx.session.hook("context")`, before every model call of a turn: route the request the first
 * time a call carries it (OpenCode 2 has no hook of its own for a new request), then narrow the
 * call (handlers/rcm.ts `modelCall`) and hand the changed messages back. The plug-in's /rcm-text
 * answers never reach the model. Never throws: on any failure the call goes on with the
 * native history and the failure is logged.
 */
export function createContextHook(deps: { rcm: Rcm; logger: Logger; answered: ReadonlySet<string> }) {
  const { rcm, logger, answered } = deps;
  const requested = new Set<string>();
  return async (event: RequestEvent): Promise<void> => {
    const native = withoutAnswers(event.messages, answered);
    try {
      const converted = fromContext({ sessionID: event.sessionID, agent: event.agent, model: event.model, messages: native });
      const request = converted.messages.findLast((message) => message.info.role === "user");
      if (request && !requested.has(request.info.id)) {
        await rcm.request({
          sessionID: event.sessionID,
          messageID: request.info.id,
          parts: request.parts,
          model: { providerID: event.model.providerID, modelID: event.model.id },
          agent: event.agent,
          moveCommand: "/rcm-text move",
        });
        if (requested.size >= REMEMBERED) requested.clear();
        requested.add(request.info.id);
      }
      await rcm.modelCall(converted.messages);
      withoutGatedTools(event, converted.messages);
      event.messages = converted.back();
    } catch (error) {
      event.messages = native;
      await logger.log("warn", `context hook failed; the call goes on with the native history: ${messageOf(error)}`, { sessionID: event.sessionID });
    }
  };
}

/**
 * `ctx.session.hook("compaction")`: every task's record brought up to date and put in place of
 * the exchanges it covers (the transform's compaction clone), and the text the summary must
 * keep added after the history. OpenCode 2 still writes the summary with the session's model.
 */
export function createCompactionHook(deps: { rcm: Rcm; logger: Logger; answered: ReadonlySet<string>; source: ContextSessionSource }) {
  const { rcm, logger, answered, source } = deps;
  return async (event: RequestEvent): Promise<void> => {
    const native = withoutAnswers(event.messages, answered);
    try {
      const keep = await rcm.compacting(event.sessionID);
      const converted = fromContext({ sessionID: event.sessionID, agent: event.agent, model: event.model, messages: native });
      // Before the records take the exchanges' place: the history as it was, for rcm_recall and the memory.
      source.archive(event.sessionID, converted.messages);
      await rcm.modelCall(converted.messages);
      // The same tools as the session's calls: a request's tools change only where the plug-in's own gates say.
      withoutGatedTools(event, converted.messages);
      event.messages = [...converted.back(), ...(keep === undefined ? [] : [{ role: "user" as const, content: [{ type: "text" as const, text: keep }] }])];
    } catch (error) {
      event.messages = native;
      await logger.log("warn", `compaction hook failed; OpenCode summarizes the native history: ${messageOf(error)}`, { sessionID: event.sessionID });
    }
  };
}

/** The request's messages without the plug-in's /rcm-text answers (by id, or by their first line after a restart). */
function withoutAnswers(messages: readonly ContextMessage[], answered: ReadonlySet<string>): ContextMessage[] {
  return messages.filter((message) => {
    if (message.role !== "user") return true;
    if (message.id !== undefined && answered.has(message.id)) return false;
    const first = typeof message.content === "string" ? message.content : message.content.find((item) => item.type === "text");
    const text = typeof first === "string" ? first : first && "text" in first ? String(first.text) : "";
    return !isAnswerText(text);
  });
}

/** The tool gates (handlers/tool-gate.ts) mark the call's user messages; OpenCode 2 takes the tools from the event. */
function withoutGatedTools(event: RequestEvent, messages: readonly MessageWithParts[]): void {
  const last = messages.findLast((message) => message.info.role === "user")?.info;
  if (last?.role !== "user" || !last.tools) return;
  for (const [name, on] of Object.entries(last.tools)) if (!on) delete event.tools[name];
}
