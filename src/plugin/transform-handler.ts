import { renderDebugAnnotation, withDebugAnnotation } from "../core/debug-annotation.js";
import { toInteractionGroups } from "../core/interaction-groups.js";
import type { MessageWithParts } from "../core/messages.js";
import type { PluginDeps } from "./deps.js";
import { throwIfSimulated } from "./simulated-failure.js";

export interface TransformOutput {
  messages: MessageWithParts[];
}

/**
 * `experimental.chat.messages.transform`: computes the context for one model call and
 * applies it in place (OpenCode ignores a new array). The compaction clone passes through.
 */
export function createTransformHandler(deps: PluginDeps) {
  return async (_input: unknown, output: TransformOutput): Promise<void> => {
    const messages = output.messages;
    const sessionID = messages[0]?.info.sessionID;
    await deps.guard("transform", sessionID, async () => {
      throwIfSimulated(deps.options, "transform");
      if (sessionID !== undefined && deps.sessions.takeCompactionClone(sessionID)) return;
      // Runs on every model call: do nothing that the options do not ask for.
      let next: MessageWithParts[] = messages;
      if (deps.options.debug) {
        const groups = toInteractionGroups(messages);
        const text = renderDebugAnnotation({ mode: deps.options.mode, groups, messageCount: messages.length });
        next = withDebugAnnotation(next, text);
        await deps.logger.log("debug", text, { sessionID: sessionID ?? null });
      }
      if (next !== messages) messages.splice(0, messages.length, ...next);
    });
  };
}
