import { renderDebugAnnotation, withDebugAnnotation } from "../core/debug-annotation.js";
import { toInteractionGroups } from "../core/interaction-groups.js";
import type { MessageWithParts } from "../core/messages.js";
import { selectTaskHistory, type TaskHistorySelection } from "../core/routing/select-task-history.js";
import type { PluginDeps } from "./deps.js";
import { throwIfSimulated } from "./simulated-failure.js";

export interface TransformOutput {
  messages: MessageWithParts[];
}

/**
 * `experimental.chat.messages.transform`: computes the context for one model call and
 * applies it in place (OpenCode ignores a new array). The compaction clone and sub-agent
 * sessions pass through.
 */
export function createTransformHandler(deps: PluginDeps) {
  const filters = deps.options.mode === "router" || deps.options.mode === "full";
  return async (_input: unknown, output: TransformOutput): Promise<void> => {
    const messages = output.messages;
    const sessionID = messages[0]?.info.sessionID;
    await deps.guard("transform", sessionID, async () => {
      throwIfSimulated(deps.options, "transform");
      if (sessionID === undefined || deps.sessions.takeCompactionClone(sessionID)) return;
      // Runs on every model call: do nothing that the options do not ask for.
      if (!deps.routing && !deps.options.debug) return;
      const groups = toInteractionGroups(messages);
      let next: MessageWithParts[] = messages;
      let selection: TaskHistorySelection | undefined;
      const ledger = deps.routing ? await deps.routing.ledger(sessionID, groups) : undefined;
      if (ledger && filters) {
        selection = selectTaskHistory({ messages, groups, ledger, threshold: deps.options.confidenceThreshold });
        if (selection.filtered) next = selection.messages;
      }
      if (deps.options.debug) {
        const text = renderDebugAnnotation({ mode: deps.options.mode, groups, messageCount: messages.length, selection });
        next = withDebugAnnotation(next, text);
        await deps.logger.log("debug", text, { sessionID });
      }
      if (next !== messages) replaceInPlace(messages, next);
    });
  };
}

/** OpenCode reads the array it passed in; a spread into splice would overflow the stack on huge histories. */
function replaceInPlace(target: MessageWithParts[], next: readonly MessageWithParts[]): void {
  target.length = 0;
  for (const message of next) target.push(message);
}
