import { activeTask, buildCallView, type ActiveTask, type CallView } from "../core/context/call-view.js";
import { reportCall, type CallReport } from "../core/context/call-report.js";
import { applyPlan, EMPTY_PLAN, isEmptyPlan, type ContextPlan } from "../core/context/context-plan.js";
import { annotateForDebug, renderDebugAnnotation } from "../core/context/debug-annotation.js";
import { narrowToTask, type NarrowingNote } from "../core/context/narrow-to-task.js";
import { replaceCoveredExchanges } from "../core/context/replace-covered-exchanges.js";
import { renderRecord } from "../core/memory/render-record.js";
import type { TaskRecord } from "../core/memory/record.js";
import type { MessageWithParts } from "../core/messages.js";
import { emptyLedger, type Ledger } from "../core/routing/ledger.js";
import type { PluginDeps } from "./deps.js";
import { cachedGroupTokens } from "./group-token-cache.js";

export interface TransformOutput {
  messages: MessageWithParts[];
}

/**
 * `experimental.chat.messages.transform`, one pipeline per model call: build the call's view
 * once; let the router learn from it; then named steps add to one plan (narrow to the task:
 * modes router and full; replace covered exchanges with the record: memory and full; the
 * debug line), applied once, in place (OpenCode ignores a new array). The compaction clone
 * and sub-agent sessions pass through untouched.
 */
export function createTransformHandler(deps: PluginDeps) {
  const narrows = deps.options.mode === "router" || deps.options.mode === "full";
  const threshold = deps.options.confidenceThreshold;
  // Records are immutable and pinned per request: render each once, not at every model call.
  const rendered = new WeakMap<TaskRecord, string>();
  const groupTokens = cachedGroupTokens();
  return async (_input: unknown, output: TransformOutput): Promise<void> => {
    const messages = output.messages;
    const sessionID = messages[0]?.info.sessionID;
    await deps.guard("transform", sessionID, async () => {
      if (sessionID === undefined || deps.sessions.takeCompactionClone(sessionID)) return;
      // Runs on every model call: do nothing that the options do not ask for.
      if (!deps.routing && !deps.options.debug) return;
      const call = deps.routing ? await deps.routing.forCall(sessionID) : { ledger: emptyLedger(), off: false };
      // A sub-agent session, or one the user switched off with /rcm off: native history.
      if (!call || call.off) return;
      const { ledger } = call;
      // A copy: the array is changed in place below.
      deps.memory?.observe(sessionID, [...messages]);
      const view = buildCallView({ messages, ledger });
      if (deps.routing) await deps.routing.learn(sessionID, view.groups);

      let plan: ContextPlan = EMPTY_PLAN;
      let narrowing: NarrowingNote | undefined;
      let memory: string | undefined;
      let record: CallReport["record"];
      const active = activeTask(view, threshold);
      if (deps.routing && narrows) ({ plan, note: narrowing } = narrowToTask({ view, plan, threshold }));
      const narrowed = plan;
      if (deps.memory) ({ plan, summary: memory, record } = await withRecord({ deps, rendered, sessionID, view, plan, ledger, active }));
      if (deps.routing) await deps.routing.noteCall(sessionID, reportCall({ view, active, narrowed, final: plan, narrowingReason: narrowing?.reason, memory, record, groupTokens }));
      if (deps.options.debug) {
        const text = renderDebugAnnotation({ mode: deps.options.mode, groups: view.groups, messageCount: messages.length, narrowing, memory });
        plan = annotateForDebug({ view, plan, text });
        // Info, not debug: OpenCode writes debug lines only with --log-level DEBUG.
        await deps.logger.log("info", text, { sessionID });
      }
      if (!isEmptyPlan(plan)) replaceInPlace(messages, applyPlan(messages, plan));
    });
  };
}

/** Step: the active task's record replaces the exchanges it covers (memory and full). */
async function withRecord(options: {
  deps: PluginDeps;
  rendered: WeakMap<TaskRecord, string>;
  sessionID: string;
  view: CallView;
  plan: ContextPlan;
  ledger: Ledger;
  active: ActiveTask;
}): Promise<{ plan: ContextPlan; summary: string; record?: CallReport["record"] }> {
  const { deps, rendered, sessionID, view, plan, ledger, active } = options;
  if (active.kind === "none") return { plan, summary: `none (${active.reason})` };
  const record = await deps.memory?.recordFor(sessionID, active.requestID, active.task);
  if (!record) return { plan, summary: `none (no record of ${active.task} yet)` };
  let renderedRecord = rendered.get(record);
  if (renderedRecord === undefined) {
    const title = ledger.tasks.find((task) => task.id === active.task)?.title ?? active.task;
    renderedRecord = renderRecord(record, { title, maxTokens: deps.options.memory.recordTokens });
    rendered.set(record, renderedRecord);
  }
  const { keepRecent, replaceBatchTokens } = deps.options.memory;
  const replaced = replaceCoveredExchanges({ view, plan, active, record, renderedRecord, keepRecent, batchTokens: replaceBatchTokens });
  const { replacedGroups, verbatimGroups, recordShown } = replaced.note;
  const shown = recordShown ? `recordChars=${renderedRecord.length}` : "not shown (nothing the view lacks)";
  const summary = `record=${active.task} covers=${record.coverage.groups.length} replaced=${replacedGroups} verbatim=${verbatimGroups} ${shown}`;
  return { plan: replaced.plan, summary, record: { task: active.task, covers: record.coverage.groups.length, replaced: replacedGroups, verbatim: verbatimGroups, shown: recordShown } };
}

/** OpenCode reads the array it passed in; a spread into splice would overflow the stack on huge histories. */
function replaceInPlace(target: MessageWithParts[], next: readonly MessageWithParts[]): void {
  target.length = 0;
  for (const message of next) target.push(message);
}
