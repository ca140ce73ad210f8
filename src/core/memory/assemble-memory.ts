import type { InteractionGroup } from "../interaction-groups.js";
import type { MessageWithParts, TextPart } from "../messages.js";
import { groupTasks } from "../routing/group-tasks.js";
import type { Ledger } from "../routing/ledger.js";
import { covers, type TaskRecord } from "./record.js";

export const DEFAULT_KEEP_RECENT = 2;

/** The request the model call answers and the task it was confidently routed to. */
export type ActiveTask =
  | { kind: "task"; requestID: string; task: string }
  | { kind: "none"; reason: string };

/** The current request's task, if the record of one may be used (confident, not shared). */
export function activeTask(groups: readonly InteractionGroup[], ledger: Ledger, threshold: number): ActiveTask {
  const request = groups.findLast((group) => group.kind === "request");
  if (!request) return { kind: "none", reason: "no user request in view" };
  const entry = ledger.decisions[request.id];
  if (!entry) return { kind: "none", reason: "current request not routed" };
  if (entry.confidence < threshold) return { kind: "none", reason: `confidence ${entry.confidence} below ${threshold}` };
  if (entry.shared) return { kind: "none", reason: "shared instruction" };
  return { kind: "task", requestID: request.id, task: entry.task };
}

export interface MemoryAssembly {
  messages: MessageWithParts[];
  task: string;
  /** Groups whose assistant/tool exchange the record replaced. */
  replacedGroups: number;
  /** Older groups of the task kept whole (not covered, or among the most recent). */
  verbatimGroups: number;
}

/**
 * Puts the active task's record into the context and leaves out the exchanges it covers:
 * - the record is a synthetic user message placed right before the current request, so
 *   everything before it is unchanged by it (a stable prefix) and the request itself stays
 *   the last user message, verbatim;
 * - user requests always stay; the last `keepRecent` groups stay whole;
 * - an older group of the task loses its assistant/tool messages only if the record's
 *   coverage includes it (continuations and orphans carry no request and go whole);
 * - groups of other tasks, shared and compaction groups are left as they are.
 * Pure and deterministic: the same input gives the same messages.
 */
export function assembleWithMemory(options: {
  messages: readonly MessageWithParts[];
  groups: readonly InteractionGroup[];
  ledger: Ledger;
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  renderedRecord: string;
  keepRecent?: number;
}): MemoryAssembly {
  const { messages, groups, ledger, active, record, renderedRecord } = options;
  const keepRecent = options.keepRecent ?? DEFAULT_KEEP_RECENT;
  const tasks = groupTasks(groups, ledger);
  const dropped = new Set<number>();
  let replacedGroups = 0;
  let verbatimGroups = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    if (task?.kind !== "task" || task.task !== active.task || group.id === active.requestID) return;
    if (position >= groups.length - keepRecent || !covers(record, requestIDOf(group))) {
      verbatimGroups += 1;
      return;
    }
    let replaced = false;
    for (const index of group.indices) {
      if (group.kind === "request" && messages[index]?.info.role === "user") continue;
      dropped.add(index);
      replaced = true;
    }
    if (replaced) replacedGroups += 1;
  });
  const result: MessageWithParts[] = [];
  messages.forEach((message, index) => {
    if (dropped.has(index)) return;
    if (message.info.id === active.requestID) result.push(recordMessage(message, active.task, renderedRecord));
    result.push(message);
  });
  return { messages: result, task: active.task, replacedGroups, verbatimGroups };
}

// Updates see the whole stored history, where an orphan's steps (cut from their request by
// compaction) belong to the group of that request.
function requestIDOf(group: InteractionGroup): string {
  return group.kind === "orphan" ? group.id.slice("orphan:".length) : group.id;
}

// Injected messages are never stored; OpenCode sends them without checking ids.
function recordMessage(request: MessageWithParts, task: string, text: string): MessageWithParts {
  const id = `${request.info.id}-rcm-memory`;
  const part: TextPart = { id: `rcm-memory-${task}`, sessionID: request.info.sessionID, messageID: id, type: "text", text, synthetic: true };
  return { info: { ...request.info, id } as MessageWithParts["info"], parts: [part] };
}
