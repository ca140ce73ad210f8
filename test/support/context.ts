import { type ActiveTask, activeTask, buildCallView } from "../../src/plugin/core/context/call-view.js";
import { applyPlan, EMPTY_PLAN } from "../../src/plugin/core/context/context-plan.js";
import { type Fallback, narrowToTask } from "../../src/plugin/core/context/narrow-to-task.js";
import { replaceCoveredExchanges } from "../../src/plugin/core/context/replace-covered-exchanges.js";
import type { ShownRecord } from "../../src/plugin/core/context/shown-record.js";
import type { TaskRecord } from "../../src/plugin/core/memory/record.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Ledger } from "../../src/plugin/core/routing/ledger.js";
import { KEEP_RECENT } from "./defaults.js";

/** The narrowing step alone, applied: what routing sends for one call. */
export function narrowed(messages: readonly MessageWithParts[], ledger: Ledger, threshold = 0.8, fallback: Fallback = "full") {
  const view = buildCallView({ messages, ledger });
  const { plan, note } = narrowToTask({ view, ledger, plan: EMPTY_PLAN, threshold, fallback });
  return { ...note, messages: applyPlan(messages, plan) };
}

/** The active task of a call over `messages`. */
export function activeTaskOf(messages: readonly MessageWithParts[], ledger: Ledger, threshold = 0.8): ActiveTask {
  return activeTask(buildCallView({ messages, ledger }), threshold);
}

/** The memory step alone (nothing narrowed before it), applied. */
export function withRecordApplied(options: {
  messages: readonly MessageWithParts[];
  ledger: Ledger;
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  renderedRecord: string;
  /** The text earlier calls were given, if any. */
  shown?: ShownRecord | undefined;
  keepRecent?: number;
  /** Default 0 here: these tests are about which exchanges may go, not about batching. */
  batchTokens?: number;
  /** Default 0 here (any batch moves the cut): only the payback tests ask for the plug-in's rule. */
  payback?: number;
}) {
  const { messages, ledger, keepRecent, batchTokens, renderedRecord, payback, ...rest } = options;
  const view = buildCallView({ messages, ledger });
  const render = () => renderedRecord;
  const { plan, note, shown } = replaceCoveredExchanges({
    view,
    plan: EMPTY_PLAN,
    ledger,
    render,
    keepRecent: keepRecent ?? KEEP_RECENT,
    batchTokens: batchTokens ?? 0,
    payback: payback ?? 0,
    ...rest,
  });
  return { ...note, shown, messages: applyPlan(messages, plan) };
}
