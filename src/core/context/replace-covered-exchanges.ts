import { groupRequestID } from "../interaction-groups.js";
import type { MessageWithParts, TextPart } from "../messages.js";
import { covers, type TaskRecord } from "../memory/record.js";
import type { ActiveTask } from "./call-view.js";
import type { CallView } from "./call-view.js";
import { withDropped, withInsertedBefore, type ContextPlan } from "./context-plan.js";

export const DEFAULT_KEEP_RECENT = 2;

/** What the memory step did, for the debug line and `/rcm why`. */
export interface MemoryNote {
  task: string;
  /** Groups whose assistant/tool exchange the record replaced. */
  replacedGroups: number;
  /** Older groups of the task kept whole (not covered, or among the most recent). */
  verbatimGroups: number;
}

/**
 * Step: puts the active task's record into the context and leaves out the exchanges it covers.
 * - The record is a synthetic user message right before the current request, so everything
 *   before it is unchanged by it (a stable prefix) and the request stays the last user
 *   message, verbatim.
 * - User requests always stay; the last `keepRecent` groups still in the context stay whole.
 * - An older group of the task loses its assistant/tool messages only if the record's
 *   coverage includes it (continuations and orphans carry no request and go whole).
 * - Groups of other tasks, shared and compaction groups are left as they are.
 */
export function replaceCoveredExchanges(options: {
  view: CallView;
  plan: ContextPlan;
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  renderedRecord: string;
  keepRecent?: number;
}): { plan: ContextPlan; note: MemoryNote } {
  const { view, active, record, renderedRecord } = options;
  const keepRecent = options.keepRecent ?? DEFAULT_KEEP_RECENT;
  const { groups, tasks, messages } = view;
  const inContext = groups.map((group) => group.indices.some((index) => !options.plan.dropped.has(index)));
  const recent = new Set<number>();
  for (let position = groups.length - 1; position >= 0 && recent.size < keepRecent; position -= 1) if (inContext[position]) recent.add(position);
  const dropped: number[] = [];
  let replacedGroups = 0;
  let verbatimGroups = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    // The current request's own work (its orphaned steps after a compaction too) is never replaced.
    if (!inContext[position] || task?.kind !== "task" || task.task !== active.task || groupRequestID(group) === active.requestID) return;
    if (recent.has(position) || !covers(record, groupRequestID(group))) {
      verbatimGroups += 1;
      return;
    }
    let replaced = false;
    for (const index of group.indices) {
      if (group.kind === "request" && messages[index]?.info.role === "user") continue;
      dropped.push(index);
      replaced = true;
    }
    if (replaced) replacedGroups += 1;
  });
  let plan = withDropped(options.plan, dropped);
  // Right before the request; after a compaction that took it out of view, right before the
  // latest user message (OpenCode's "Continue"), so the record reaches the continuation too.
  const requestIndex = active.inView
    ? messages.findIndex((message) => message.info.id === active.requestID)
    : messages.findLastIndex((message, index) => message.info.role === "user" && !plan.dropped.has(index));
  const anchor = messages[requestIndex];
  if (anchor) plan = withInsertedBefore(plan, requestIndex, recordMessage(anchor, active.task, renderedRecord));
  return { plan, note: { task: active.task, replacedGroups, verbatimGroups } };
}

// Injected messages are never stored; OpenCode sends them without checking ids.
function recordMessage(anchor: MessageWithParts, task: string, text: string): MessageWithParts {
  const id = `${anchor.info.id}-rcm-memory`;
  const part: TextPart = { id: `rcm-memory-${task}`, sessionID: anchor.info.sessionID, messageID: id, type: "text", text, synthetic: true };
  return { info: { ...anchor.info, id } as MessageWithParts["info"], parts: [part] };
}
