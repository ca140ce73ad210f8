import type { InteractionGroup } from "../interaction-groups.js";
import type { MessageWithParts } from "../messages.js";
import { groupTasks } from "./group-tasks.js";
import type { Ledger } from "./ledger.js";

export interface TaskHistorySelection {
  /** The messages to send: a subsequence of the input, whole groups only. */
  messages: MessageWithParts[];
  /** False when everything was kept. */
  filtered: boolean;
  task: string | undefined;
  confidence: number | undefined;
  keptGroups: number;
  totalGroups: number;
  reason: string;
}

/**
 * Chooses the history for the current request: the groups of its task and of the tasks it
 * relates to, plus shared, unassigned and compaction groups. Other tasks' groups are left
 * out whole, so a tool call never loses its result. Below the confidence threshold, or
 * when the request was not routed, everything is kept. Pure and deterministic.
 */
export function selectTaskHistory(options: {
  messages: readonly MessageWithParts[];
  groups: readonly InteractionGroup[];
  ledger: Ledger;
  threshold: number;
}): TaskHistorySelection {
  const { messages, groups, ledger, threshold } = options;
  const keepAll = (reason: string, task?: string, confidence?: number): TaskHistorySelection => ({
    messages: [...messages],
    filtered: false,
    task,
    confidence,
    keptGroups: groups.length,
    totalGroups: groups.length,
    reason,
  });
  const request = groups.findLast((group) => group.kind === "request");
  if (!request) return keepAll("no user request in view");
  const entry = ledger.decisions[request.id];
  if (!entry) return keepAll("current request not routed");
  if (entry.confidence < threshold) return keepAll(`confidence ${entry.confidence} below ${threshold}`, entry.task, entry.confidence);
  if (entry.shared) return keepAll("shared instruction", entry.task, entry.confidence);

  const visible = new Set([entry.task, ...entry.related]);
  const tasks = groupTasks(groups, ledger);
  const kept = groups.filter((group, position) => {
    const task = tasks[position];
    return group === groups[groups.length - 1] || task === undefined || task.kind === "visible" || visible.has(task.task);
  });
  if (kept.length === groups.length) return keepAll(`every group belongs to ${[...visible].join(", ")} or is visible`, entry.task, entry.confidence);
  const indices = kept.flatMap((group) => group.indices).sort((a, b) => a - b);
  return {
    messages: indices.map((index) => messages[index] as MessageWithParts),
    filtered: true,
    task: entry.task,
    confidence: entry.confidence,
    keptGroups: kept.length,
    totalGroups: groups.length,
    reason: `task ${entry.task}${entry.related.length > 0 ? ` with ${entry.related.join(", ")}` : ""}`,
  };
}
