import { activeTask, type CallView } from "./call-view.js";
import { type ContextPlan, withDropped } from "./context-plan.js";

/** What narrowing did, for the debug line and `/rcm why`. */
export interface NarrowingNote {
  /** False when everything was kept. */
  filtered: boolean;
  task: string | undefined;
  confidence: number | undefined;
  keptGroups: number;
  totalGroups: number;
  reason: string;
}

/**
 * Step: leaves out other tasks' groups. Kept: the current task's groups and those of the
 * tasks it relates to, shared, unassigned and compaction groups, and the latest group.
 * Groups go whole, so a tool call never loses its result. Below the confidence threshold,
 * for a shared instruction, or when the request was not routed, everything stays.
 */
export function narrowToTask(options: { view: CallView; plan: ContextPlan; threshold: number }): { plan: ContextPlan; note: NarrowingNote } {
  const { view, plan, threshold } = options;
  const { groups, tasks, current } = view;
  const entry = current.kind === "routed" ? current.entry : undefined;
  const keepAll = (reason: string): { plan: ContextPlan; note: NarrowingNote } => ({
    plan,
    note: { filtered: false, task: entry?.task, confidence: entry?.confidence, keptGroups: groups.length, totalGroups: groups.length, reason },
  });
  const active = activeTask(view, threshold);
  if (active.kind === "none") return keepAll(active.reason);
  const visible = new Set([active.task, ...active.entry.related]);
  const dropped: number[] = [];
  let kept = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    if (position === groups.length - 1 || task === undefined || task.kind === "visible" || visible.has(task.task)) kept += 1;
    else dropped.push(...group.indices);
  });
  if (dropped.length === 0) return keepAll(`every group belongs to ${[...visible].join(", ")} or is visible`);
  const related = active.entry.related;
  return {
    plan: withDropped(plan, dropped),
    note: {
      filtered: true,
      task: active.task,
      confidence: active.entry.confidence,
      keptGroups: kept,
      totalGroups: groups.length,
      reason: `task ${active.task}${related.length > 0 ? ` with ${related.join(", ")}` : ""}`,
    },
  };
}
