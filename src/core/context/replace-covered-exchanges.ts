import { groupRequestID } from "../interaction-groups.js";
import type { MessageWithParts, TextPart } from "../messages.js";
import { covers, type TaskRecord } from "../memory/record.js";
import type { ActiveTask } from "./call-view.js";
import type { CallView } from "./call-view.js";
import { messageTokens } from "./call-report.js";
import { withDropped, withInsertedBefore, type ContextPlan } from "./context-plan.js";

export const DEFAULT_KEEP_RECENT = 2;
/** Covered exchanges are replaced in batches of at least this many estimated tokens. */
export const DEFAULT_REPLACE_BATCH_TOKENS = 2000;

/** What the memory step did, for the debug line and `/rcm why`. */
export interface MemoryNote {
  task: string;
  /** Groups whose assistant/tool exchange the record replaced. */
  replacedGroups: number;
  /** Older groups of the task kept whole (not covered, among the most recent, or short of a batch). */
  verbatimGroups: number;
  /** False when the view already holds everything the record carries. */
  recordShown: boolean;
}

/**
 * Step: puts the active task's record into the context and leaves out the exchanges it covers,
 * keeping the provider's prompt cache where it can.
 * - User requests always stay; the last `keepRecent` groups still in the context stay whole.
 * - An older group of the task loses its assistant/tool messages only if the record's
 *   coverage includes it (continuations and orphans carry no request and go whole).
 * - Replacing rewrites history, and the cached prefix is lost from the first rewritten
 *   message on. So covered exchanges go in batches: the longest run of covered groups, oldest
 *   first, that completes a whole number of `batchTokens` (estimated); the rest stay verbatim
 *   until the next batch is full. The same history always gives the same cut, so between
 *   batches consecutive calls keep their prefix.
 * - The record goes in only when it carries something the view lacks: an exchange was
 *   replaced, or the task's history is partly out of view (a compaction summary, or the
 *   request itself compacted away). It is a synthetic user message right before the current
 *   request (or, with the request out of view, before the latest user message), so what
 *   comes before it keeps its bytes and the request stays the last user message, verbatim.
 * - Groups of other tasks, shared and compaction groups are left as they are.
 */
export function replaceCoveredExchanges(options: {
  view: CallView;
  plan: ContextPlan;
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  renderedRecord: string;
  keepRecent?: number;
  /** 0: replace every covered exchange at once. */
  batchTokens?: number;
}): { plan: ContextPlan; note: MemoryNote } {
  const { view, active, record, renderedRecord } = options;
  const keepRecent = options.keepRecent ?? DEFAULT_KEEP_RECENT;
  const batchTokens = options.batchTokens ?? DEFAULT_REPLACE_BATCH_TOKENS;
  const { groups, tasks, messages } = view;
  const inContext = groups.map((group) => group.indices.some((index) => !options.plan.dropped.has(index)));
  const recent = new Set<number>();
  for (let position = groups.length - 1; position >= 0 && recent.size < keepRecent; position -= 1) if (inContext[position]) recent.add(position);
  const candidates: Array<{ exchange: number[]; tokens: number }> = [];
  let verbatimGroups = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    // The current request's own work (its orphaned steps after a compaction too) is never replaced.
    if (!inContext[position] || task?.kind !== "task" || task.task !== active.task || groupRequestID(group) === active.requestID) return;
    if (recent.has(position) || !covers(record, groupRequestID(group))) {
      verbatimGroups += 1;
      return;
    }
    const exchange = group.indices.filter((index) => !(group.kind === "request" && messages[index]?.info.role === "user"));
    if (exchange.length === 0) return;
    candidates.push({ exchange, tokens: exchange.reduce((sum, index) => sum + messageTokens(messages[index]), 0) });
  });
  const replaced = candidates.slice(0, batchCut(candidates.map((candidate) => candidate.tokens), batchTokens));
  verbatimGroups += candidates.length - replaced.length;
  const replacedGroups = replaced.length;
  const dropped = replaced.flatMap((candidate) => candidate.exchange);
  let plan = withDropped(options.plan, dropped);
  // Right before the request; after a compaction that took it out of view, right before the
  // latest user message (OpenCode's "Continue"), so the record reaches the continuation too.
  const requestIndex = active.inView
    ? messages.findIndex((message) => message.info.id === active.requestID)
    : messages.findLastIndex((message, index) => message.info.role === "user" && !plan.dropped.has(index));
  const anchor = messages[requestIndex];
  const lacking = replacedGroups > 0 || !active.inView || groups.some((group, position) => inContext[position] && group.kind === "compaction");
  if (anchor && lacking) plan = withInsertedBefore(plan, requestIndex, recordMessage(anchor, active.task, renderedRecord));
  return { plan, note: { task: active.task, replacedGroups, verbatimGroups, recordShown: anchor !== undefined && lacking } };
}

/** How many of the candidates, oldest first, make up the whole batches: cumulative tokens up to the last multiple of `batch`. */
function batchCut(tokens: readonly number[], batch: number): number {
  if (batch <= 0) return tokens.length;
  const total = tokens.reduce((sum, value) => sum + value, 0);
  const target = Math.floor(total / batch) * batch;
  if (target === 0) return 0;
  let sum = 0;
  for (let count = 0; count < tokens.length; count += 1) {
    sum += tokens[count] ?? 0;
    if (sum >= target) return count + 1;
  }
  return tokens.length;
}

// Injected messages are never stored; OpenCode sends them without checking ids.
function recordMessage(anchor: MessageWithParts, task: string, text: string): MessageWithParts {
  const id = `${anchor.info.id}-rcm-memory`;
  const part: TextPart = { id: `rcm-memory-${task}`, sessionID: anchor.info.sessionID, messageID: id, type: "text", text, synthetic: true };
  return { info: { ...anchor.info, id } as MessageWithParts["info"], parts: [part] };
}
