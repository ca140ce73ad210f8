import { type ActiveTask, activeTask, buildCallView } from "../../src/core/context/call-view.js";
import { applyPlan, EMPTY_PLAN } from "../../src/core/context/context-plan.js";
import { type Fallback, narrowToTask } from "../../src/core/context/narrow-to-task.js";
import { replaceCoveredExchanges } from "../../src/core/context/replace-covered-exchanges.js";
import type { TaskRecord } from "../../src/core/memory/record.js";
import type { MessageWithParts } from "../../src/core/messages.js";
import type { Ledger } from "../../src/core/routing/ledger.js";
import { KEEP_RECENT } from "./defaults.js";

/** The narrowing step alone, applied: what routing sends for one call. */
export function narrowed(messages: readonly MessageWithParts[], ledger: Ledger, threshold = 0.8, fallback: Fallback = "full") {
  const view = buildCallView({ messages, ledger });
  const { plan, note } = narrowToTask({ view, plan: EMPTY_PLAN, threshold, fallback });
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
  keepRecent?: number;
  /** Default 0 here: these tests are about which exchanges may go, not about batching. */
  batchTokens?: number;
}) {
  const { messages, ledger, keepRecent, batchTokens, ...rest } = options;
  const view = buildCallView({ messages, ledger });
  const { plan, note } = replaceCoveredExchanges({ view, plan: EMPTY_PLAN, keepRecent: keepRecent ?? KEEP_RECENT, batchTokens: batchTokens ?? 0, ...rest });
  return { ...note, messages: applyPlan(messages, plan) };
}
