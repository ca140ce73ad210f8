import { modeParts } from "../config/modes.js";
import { type CallReport, groupSizes, reportCall } from "../core/context/call-report.js";
import { type ActiveTask, activeTask, buildCallView, type CallView } from "../core/context/call-view.js";
import { applyPlan, type ContextPlan, EMPTY_PLAN, isEmptyPlan } from "../core/context/context-plan.js";
import { annotateForDebug, renderDebugAnnotation } from "../core/context/debug-annotation.js";
import { type NarrowingNote, narrowToTask } from "../core/context/narrow-to-task.js";
import { recordsForCompaction } from "../core/context/records-for-compaction.js";
import { replaceCoveredExchanges } from "../core/context/replace-covered-exchanges.js";
import { resumedRecordText, withResumedRecords } from "../core/context/resumed-records.js";
import type { ShownRecord } from "../core/context/shown-record.js";
import { estimateTokens } from "../core/memory/estimate-tokens.js";
import type { TaskRecord } from "../core/memory/record.js";
import { renderRecord } from "../core/memory/render-record.js";
import type { MessageWithParts } from "../core/messages.js";
import { emptyLedger, type Ledger, type LedgerTask } from "../core/routing/ledger.js";
import type { LiveSession, StoredSession } from "../sessions/live-session.js";
import { withCallNoted } from "../sessions/session-store.js";
import type { SessionState } from "../store/session-state-file.js";
import type { PluginDeps } from "./deps.js";
import { cachedGroups } from "./group-cache.js";
import { cachedGroupTokens } from "./group-token-cache.js";

export interface TransformOutput {
  messages: MessageWithParts[];
}

/**
 * `experimental.chat.messages.transform`, one pipeline per model call: group the messages once;
 * let the router learn from the groups (a turn its edits relabel shows in this very call);
 * build the call's view, its active task and its groups' sizes once; then named steps add to one plan (narrow to the task:
 * modes router and full; replace covered exchanges with the record: memory and full; the
 * debug line), applied once, in place (OpenCode ignores a new array). On the compaction
 * clone the records take the place of what they cover (memory and full); sub-agent sessions
 * pass through untouched.
 */
export function createTransformHandler(deps: PluginDeps) {
  const { narrows } = modeParts(deps.options.mode);
  const threshold = deps.options.confidenceThreshold;
  // Records are immutable and pinned per request: render each once, not at every model call.
  const rendered = new WeakMap<TaskRecord, string>();
  return async (_input: unknown, output: TransformOutput): Promise<void> => {
    const messages = output.messages;
    const sessionID = messages[0]?.info.sessionID;
    await deps.guard("transform", sessionID, async () => {
      if (sessionID === undefined) return;
      // Everything held about the session: its groups, their sizes, its budget, the compaction flag (taken once).
      const live = deps.sessions.get(sessionID);
      const clone = live.compactionClone;
      live.compactionClone = false;
      // Runs on every model call: do nothing that the options do not ask for.
      const { store } = deps;
      if (!store) {
        if (!clone && deps.options.debug) await transformCall({ deps, live, messages, session: undefined, narrows, threshold, rendered });
        return;
      }
      // One step of the session per model call: its state read once at the start, its change written once at the end.
      await store.step(sessionID, async (session) => {
        // A sub-agent session, or one the user switched off with /rcm off: native history.
        if (session.subagent || session.state.off) return;
        if (clone) {
          if (deps.memory) await recordsInPlace({ deps, session, messages });
          return;
        }
        const { report, shown } = await transformCall({ deps, live, messages, session, narrows, threshold, rendered });
        if (report) store.stage(session, withShown(withCallNoted(session.state, report), shown));
      });
    });
  };
}

/** One model call's pipeline (the session undefined in mode native with debug): returns what the call received. */
async function transformCall(options: {
  deps: PluginDeps;
  live: LiveSession;
  messages: MessageWithParts[];
  session: StoredSession | undefined;
  narrows: boolean;
  threshold: number;
  rendered: WeakMap<TaskRecord, string>;
}): Promise<{ report: CallReport | undefined; shown?: ShownRecord | undefined }> {
  const { deps, live, messages, session, narrows, threshold, rendered } = options;
  const { sessionID } = live;
  // Grouped once (what the last call grouped is reused): routing learns from the groups, the view and the next memory update reuse them.
  const groups = cachedGroups(live, messages);
  // A copy: the array is changed in place below.
  deps.memory?.observe(sessionID, [...messages], groups);
  // Before the view: a relabel or confirmation it makes is in the ledger the view reads.
  const tasks = session ? await deps.routing?.learn(session, groups) : undefined;
  const ledger = session?.state.ledger ?? emptyLedger();
  const view = buildCallView({ messages, ledger, groups, tasks });

  let plan: ContextPlan = EMPTY_PLAN;
  let narrowing: NarrowingNote | undefined;
  let memory: string | undefined;
  let record: CallReport["record"];
  let shown: ShownRecord | undefined;
  const active = activeTask(view, threshold);
  if (session && narrows) ({ plan, note: narrowing } = narrowToTask({ view, ledger, plan, threshold, fallback: deps.options.fallback, active }));
  const narrowed = plan;
  const budget = deps.budgets ? await deps.budgets.budget(live, messages) : undefined;
  // Each group's size once (finished groups' from the cache), for the window's budget and the report.
  const sizes = session ? groupSizes({ view, groupTokens: cachedGroupTokens(live) }) : undefined;
  let resumed: string[] | undefined;
  if (session && deps.memory) {
    ({ plan, summary: memory, record, shown } = await withRecord({ deps, rendered, session, view, plan, ledger, active, budget, sizes }));
    ({ plan, placed: resumed } = resumedRecords({ deps, session, view, plan, ledger, active }));
  }
  const report = session ? reportCall({ view, active, narrowed, final: plan, narrowingReason: narrowing?.reason, memory, record, resumed, sizes }) : undefined;
  if (deps.options.debug) {
    const text = renderDebugAnnotation({ mode: deps.options.mode, groups: view.groups, messageCount: messages.length, narrowing, memory });
    plan = annotateForDebug({ view, plan, text });
    // Info, not debug: OpenCode writes debug lines only with --log-level DEBUG.
    await deps.logger.log("info", text, { sessionID });
  }
  // From the report's cached group sizes: a walk over every message per call costs the server.
  if (budget !== undefined && report?.tokens.sent !== undefined) deps.budgets?.sent(live, report.tokens.sent);
  if (!isEmptyPlan(plan)) replaceInPlace(messages, applyPlan(messages, plan));
  return { report, shown };
}

/** Step: the records resumed tasks brought from their earlier sessions (the same bytes at every call: they never change here). */
function resumedRecords(options: { deps: PluginDeps; session: StoredSession; view: CallView; plan: ContextPlan; ledger: Ledger; active: ActiveTask }) {
  const { deps, session, view, plan, ledger, active } = options;
  const { resumed } = session.state;
  if (!resumed) return { plan, placed: [] };
  const render = (task: LedgerTask) => resumedRecordText(task, resumed[task.id]?.records ?? [], deps.options.memory.recordTokens);
  return withResumedRecords({ view, plan, tasks: ledger.tasks, active: active.kind === "task" ? active.task : undefined, render });
}

/** The state with the record text a task's calls are now given (kept until its cut moves). */
function withShown(state: SessionState, shown: ShownRecord | undefined): SessionState {
  return shown ? { ...state, shownRecords: { ...state.shownRecords, [shown.task]: shown } } : state;
}

/** Step: the active task's record replaces the exchanges it covers (memory and full), within the window's budget. */
async function withRecord(options: {
  deps: PluginDeps;
  rendered: WeakMap<TaskRecord, string>;
  session: StoredSession;
  view: CallView;
  plan: ContextPlan;
  ledger: Ledger;
  active: ActiveTask;
  budget: number | undefined;
  /** Each group's estimated tokens, in the view's groups order. */
  sizes: readonly number[] | undefined;
}): Promise<{ plan: ContextPlan; summary: string; record?: CallReport["record"]; shown?: ShownRecord }> {
  const { deps, rendered, session, view, plan, ledger, active } = options;
  if (active.kind === "none") return { plan, summary: `none (${active.reason})` };
  const record = deps.memory?.recordFor(session, active.requestID, active.task);
  if (!record) return { plan, summary: `none (no record of ${active.task} yet)` };
  const title = ledger.tasks.find((task) => task.id === active.task)?.title ?? active.task;
  const render = (maxTokens?: number): string => {
    if (maxTokens !== undefined) return renderRecord(record, { title, maxTokens });
    let text = rendered.get(record);
    if (text === undefined) {
      text = renderRecord(record, { title, maxTokens: deps.options.memory.recordTokens });
      rendered.set(record, text);
    }
    return text;
  };
  const shown = session.state.shownRecords?.[active.task];
  // The budget matters only when the whole history and the record together could exceed it (cached sizes: cheap).
  let budget: number | undefined;
  if (options.budget !== undefined) {
    const whole =
      (options.sizes ?? groupSizes({ view })).reduce((sum, size) => sum + size, 0) + Math.max(estimateTokens(render()), estimateTokens(shown?.text ?? ""));
    if (whole > options.budget) budget = options.budget;
  }
  const { keepRecent, replaceBatchTokens } = deps.options.memory;
  const replaced = replaceCoveredExchanges({ view, plan, ledger, active, record, render, shown, keepRecent, batchTokens: replaceBatchTokens, budget });
  const { replacedGroups, verbatimGroups, recordShown, recordKept, window } = replaced.note;
  const text = replaced.shown?.text ?? "";
  const shownNote = recordShown
    ? `recordChars=${text.length}${recordKept ? " (the text shown before)" : " (new text)"}`
    : window === "no room"
      ? "not shown (no room left in the window)"
      : "not shown (nothing the view lacks)";
  const summary = `record=${active.task} covers=${record.coverage.groups.length} replaced=${replacedGroups} verbatim=${verbatimGroups} ${shownNote}${window ? ` window: ${window}` : ""}`;
  return {
    plan: replaced.plan,
    summary,
    record: recordUse(record, replaced),
    ...(replaced.shown && replaced.shown !== shown ? { shown: replaced.shown } : {}),
  };
}

/**
 * What the call did with the task's record, for people: a text shown is described as it was
 * rendered (a text kept from an earlier call may stand for an earlier version of the record);
 * otherwise the record the call had.
 */
function recordUse(record: TaskRecord, step: ReturnType<typeof replaceCoveredExchanges>): NonNullable<CallReport["record"]> {
  const { note, shown } = step;
  const covered = note.recordShown && shown ? shown.covers : record.coverage.groups;
  const through = note.recordShown && shown ? shown.covers.at(-1) : record.coverage.through;
  return {
    task: note.task,
    covers: covered.length,
    replaced: note.replacedGroups,
    verbatim: note.verbatimGroups,
    shown: note.recordShown,
    ...(through === undefined ? {} : { through }),
    compacted: note.compacted,
    ...(note.window ? { window: note.window } : {}),
  };
}

/**
 * The compaction clone (the older history OpenCode is about to summarize): every task's record
 * in place of the exchanges it covers, so the summarizer reads the records instead of
 * reading them on top of the history.
 */
async function recordsInPlace(options: { deps: PluginDeps; session: StoredSession; messages: MessageWithParts[] }): Promise<void> {
  const { deps, session, messages } = options;
  const { state, sessionID } = session;
  if (Object.keys(state.records).length === 0) return;
  const view = buildCallView({ messages, ledger: state.ledger });
  const budget = deps.budgets ? await deps.budgets.budget(session.live, messages) : undefined;
  const titleOf = (task: string) => state.ledger.tasks.find((entry) => entry.id === task)?.title ?? task;
  const render = (task: string, maxTokens?: number) => {
    const record = state.records[task];
    return record ? renderRecord(record, { title: titleOf(task), maxTokens: maxTokens ?? deps.options.memory.recordTokens }) : "";
  };
  const { plan, placed, appended } = recordsForCompaction({
    view,
    ledger: state.ledger,
    records: state.records,
    render,
    budget: budget === undefined ? undefined : budget - COMPACTION_PROMPT_TOKENS,
  });
  if (isEmptyPlan(plan)) return;
  replaceInPlace(messages, applyPlan(messages, plan));
  await deps.logger.log(
    "info",
    `compaction: the records of ${placed.join(", ") || "no task"} in place of the exchanges they cover${appended.length > 0 ? `; ${appended.join(", ")} (summarized before) at the top` : ""}`,
    { sessionID },
  );
}

/** Room kept in the compaction call for OpenCode's summary prompt and the plug-in's instructions. */
const COMPACTION_PROMPT_TOKENS = 1_500;

/** OpenCode reads the array it passed in; a spread into splice would overflow the stack on huge histories. */
function replaceInPlace(target: MessageWithParts[], next: readonly MessageWithParts[]): void {
  target.length = 0;
  for (const message of next) target.push(message);
}
