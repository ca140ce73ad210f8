import { groupRequestID } from "../interaction-groups.js";
import { estimateTokens } from "../memory/estimate-tokens.js";
import { activeConstraints, covers, type TaskRecord } from "../memory/record.js";
import type { MessageWithParts, TextPart } from "../messages.js";
import { messageTokens, planTokens } from "./call-report.js";
import type { ActiveTask, CallView } from "./call-view.js";
import { type ContextPlan, withDropped, withInsertedBefore } from "./context-plan.js";


/** What the memory step did, for the debug line and `/rcm why`. */
export interface MemoryNote {
  task: string;
  /** Groups whose assistant/tool exchange the record replaced. */
  replacedGroups: number;
  /** Older groups of the task kept whole (not covered, among the most recent, or short of a batch). */
  verbatimGroups: number;
  /** False when the view already holds everything the record carries, or the window has no room for it. */
  recordShown: boolean;
  /** How the window's budget shaped the step; absent when there was no budget or it was not needed. */
  window?: "replaced all covered" | "record trimmed" | "no room";
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
 *   replaced, the request itself was compacted away, or a compaction summary is in view that
 *   does not already carry the record's constraints. It is a synthetic user message right before the current
 *   request (or, with the request out of view, before the latest user message), so what
 *   comes before it keeps its bytes and the request stays the last user message, verbatim.
 * - Groups of other tasks, shared and compaction groups are left as they are.
 * - With a `budget` (the tokens the call's messages may take before OpenCode would compact),
 *   the memory never pushes the call over it: when the record does not fit, every covered
 *   exchange goes at once (a compaction would cost far more than the cache), then the record
 *   is trimmed to the room left (`fitRecord`, constraints kept), and if even that does not
 *   fit, the step changes nothing: native history, as without the plug-in.
 */
export function replaceCoveredExchanges(options: {
  view: CallView;
  plan: ContextPlan;
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  renderedRecord: string;
  keepRecent: number;
  /** 0: replace every covered exchange at once. */
  batchTokens: number;
  /** Estimated tokens the call's messages may take, the record included; undefined: no limit known. */
  budget?: number | undefined;
  /** The record rendered within a smaller bound, for when the whole one does not fit the budget. */
  fitRecord?: ((maxTokens: number) => string) | undefined;
}): { plan: ContextPlan; note: MemoryNote } {
  const { view, active, record, renderedRecord } = options;
  const { keepRecent, batchTokens } = options;
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
  const batched = candidates.slice(0, batchCut(candidates.map((candidate) => candidate.tokens), batchTokens));
  // Right before the request; after a compaction that took it out of view, right before the
  // latest user message (OpenCode's "Continue"), so the record reaches the continuation too.
  const requestIndex = active.inView
    ? messages.findIndex((message) => message.info.id === active.requestID)
    : messages.findLastIndex((message, index) => message.info.role === "user" && !options.plan.dropped.has(index));
  const anchor = messages[requestIndex];
  const summaryLacks = groups.some((group, position) => inContext[position] && group.kind === "compaction") && !summaryCarries(view, record);
  const lacking = (replaced: number) => replaced > 0 || !active.inView || summaryLacks;
  const withRecord = (replaced: typeof candidates, text: string | undefined) => {
    const plan = withDropped(options.plan, replaced.flatMap((candidate) => candidate.exchange));
    return anchor && text !== undefined && lacking(replaced.length) ? withInsertedBefore(plan, requestIndex, recordMessage(anchor, active.task, text)) : plan;
  };
  const finish = (replaced: typeof candidates, text: string | undefined, window?: MemoryNote["window"]) => ({
    plan: withRecord(replaced, text),
    note: {
      task: active.task,
      replacedGroups: replaced.length,
      verbatimGroups: verbatimGroups + candidates.length - replaced.length,
      recordShown: anchor !== undefined && text !== undefined && lacking(replaced.length),
      ...(window ? { window } : {}),
    },
  });
  const { budget } = options;
  if (budget === undefined || !lacking(batched.length) || planTokens(messages, withRecord(batched, renderedRecord)) <= budget) return finish(batched, renderedRecord);
  if (planTokens(messages, withRecord(candidates, renderedRecord)) <= budget) return finish(candidates, renderedRecord, "replaced all covered");
  const room = budget - planTokens(messages, withRecord(candidates, undefined));
  const trimmed = room > 0 ? options.fitRecord?.(room) : undefined;
  if (trimmed !== undefined && estimateTokens(trimmed) <= room) return finish(candidates, trimmed, "record trimmed");
  return finish([], undefined, "no room");
}

/** Whether a compaction summary in view already carries every constraint of the record, word for word. */
function summaryCarries(view: CallView, record: TaskRecord): boolean {
  const constraints = activeConstraints(record).map((constraint) => flat(constraint.text));
  if (constraints.length === 0) return false;
  const summary = flat(
    view.groups
      .filter((group) => group.kind === "compaction")
      .flatMap((group) => group.indices.flatMap((index) => view.messages[index]?.parts ?? []))
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("\n"),
  );
  return constraints.every((constraint) => summary.includes(constraint));
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
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

/**
 * A record as a synthetic user message modelled on the user message `anchor`. Injected
 * messages are never stored; OpenCode sends (or serializes) them without checking ids.
 */
export function recordMessage(anchor: MessageWithParts, task: string, text: string, id = `${anchor.info.id}-rcm-memory`): MessageWithParts {
  const part: TextPart = { id: `rcm-memory-${task}`, sessionID: anchor.info.sessionID, messageID: id, type: "text", text, synthetic: true };
  return { info: { ...anchor.info, id } as MessageWithParts["info"], parts: [part] };
}
