import { renderDebugAnnotation, withDebugAnnotation } from "../core/debug-annotation.js";
import { toInteractionGroups, type InteractionGroup } from "../core/interaction-groups.js";
import { activeTask, assembleWithMemory } from "../core/memory/assemble-memory.js";
import { renderRecord } from "../core/memory/render-record.js";
import type { TaskRecord } from "../core/memory/record.js";
import type { MessageWithParts } from "../core/messages.js";
import type { Ledger } from "../core/routing/ledger.js";
import { selectTaskHistory, type TaskHistorySelection } from "../core/routing/select-task-history.js";
import type { PluginDeps } from "./deps.js";
import { throwIfSimulated } from "./simulated-failure.js";

export interface TransformOutput {
  messages: MessageWithParts[];
}

/**
 * `experimental.chat.messages.transform`: computes the context for one model call and
 * applies it in place (OpenCode ignores a new array). Routing filters first (modes router
 * and full), then the memory replaces covered exchanges (modes memory and full). The
 * compaction clone and sub-agent sessions pass through.
 */
export function createTransformHandler(deps: PluginDeps) {
  const filters = deps.options.mode === "router" || deps.options.mode === "full";
  // Records are immutable and pinned per request: render each once, not at every model call.
  const rendered = new WeakMap<TaskRecord, string>();
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
      let memory: string | undefined;
      const ledger = deps.routing ? await deps.routing.ledger(sessionID, groups) : undefined;
      if (ledger && filters) {
        selection = selectTaskHistory({ messages, groups, ledger, threshold: deps.options.confidenceThreshold });
        if (selection.filtered) next = selection.messages;
      }
      if (ledger && deps.memory) {
        const assembled = await withMemory(deps, rendered, sessionID, next, next === messages ? groups : toInteractionGroups(next), ledger);
        next = assembled.messages;
        memory = assembled.summary;
      }
      if (deps.options.debug) {
        const text = renderDebugAnnotation({ mode: deps.options.mode, groups, messageCount: messages.length, selection, memory });
        next = withDebugAnnotation(next, text);
        await deps.logger.log("debug", text, { sessionID });
      }
      if (next !== messages) replaceInPlace(messages, next);
    });
  };
}

async function withMemory(
  deps: PluginDeps,
  rendered: WeakMap<TaskRecord, string>,
  sessionID: string,
  messages: MessageWithParts[],
  groups: readonly InteractionGroup[],
  ledger: Ledger,
): Promise<{ messages: MessageWithParts[]; summary: string }> {
  const active = activeTask(groups, ledger, deps.options.confidenceThreshold);
  if (active.kind === "none") return { messages, summary: `none (${active.reason})` };
  const record = await deps.memory?.recordFor(sessionID, active.requestID, active.task);
  if (!record) return { messages, summary: `none (no record of ${active.task} yet)` };
  let renderedRecord = rendered.get(record);
  if (renderedRecord === undefined) {
    const title = ledger.tasks.find((task) => task.id === active.task)?.title ?? active.task;
    renderedRecord = renderRecord(record, { title, maxTokens: deps.options.memory.recordTokens });
    rendered.set(record, renderedRecord);
  }
  const assembled = assembleWithMemory({ messages, groups, ledger, active, record, renderedRecord, keepRecent: deps.options.memory.keepRecent });
  const summary = `record=${active.task} covers=${record.coverage.groups.length} replaced=${assembled.replacedGroups} verbatim=${assembled.verbatimGroups} recordChars=${renderedRecord.length}`;
  return { messages: assembled.messages, summary };
}

/** OpenCode reads the array it passed in; a spread into splice would overflow the stack on huge histories. */
function replaceInPlace(target: MessageWithParts[], next: readonly MessageWithParts[]): void {
  target.length = 0;
  for (const message of next) target.push(message);
}
