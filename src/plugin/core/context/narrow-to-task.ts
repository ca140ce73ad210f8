import { type ActiveTask, activeTask, type CallView } from "./call-view.js";
import { type ContextPlan, withDropped } from "./context-plan.js";

/** What the model gets below the threshold: every task's history (the paper's), or the tasks the request could belong to. */
export const FALLBACKS = ["full", "candidates"] as const;
export type Fallback = (typeof FALLBACKS)[number];

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
 * Groups go whole, so a tool call never loses its result. Below the confidence threshold
 * everything stays, or with `fallback: "candidates"` every task the decision could not rule
 * out; for a shared instruction, or when the request was not routed, everything stays.
 */
export function narrowToTask(options: {
  view: CallView;
  plan: ContextPlan;
  threshold: number;
  fallback: Fallback;
  /** The view's `activeTask` at `threshold`, when the caller has it already. */
  active?: ActiveTask | undefined;
}): { plan: ContextPlan; note: NarrowingNote } {
  const { view, plan, threshold, fallback } = options;
  const { groups, tasks, current } = view;
  const entry = current.kind === "routed" ? current.entry : undefined;
  const keepAll = (reason: string): { plan: ContextPlan; note: NarrowingNote } => ({
    plan,
    note: { filtered: false, task: entry?.task, confidence: entry?.confidence, keptGroups: groups.length, totalGroups: groups.length, reason },
  });
  const active = options.active ?? activeTask(view, threshold);
  const candidates = fallback === "candidates" && entry && !entry.shared && current.kind === "routed" ? entry.candidates : undefined;
  if (active.kind === "none" && candidates === undefined) return keepAll(active.reason);
  const visible = new Set(active.kind === "task" ? [active.task, ...active.entry.related] : candidates);
  const dropped: number[] = [];
  let kept = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    if (position === groups.length - 1 || task === undefined || task.kind === "visible" || visible.has(task.task)) kept += 1;
    else dropped.push(...group.indices);
  });
  if (dropped.length === 0) return keepAll(`every group belongs to ${[...visible].join(", ")} or is visible`);
  const reason =
    active.kind === "task"
      ? `task ${active.task}${active.entry.related.length > 0 ? ` with ${active.entry.related.join(", ")}` : ""}`
      : `${active.reason}, kept ${[...visible].join(", ")}`;
  return {
    plan: withDropped(plan, dropped),
    note: { filtered: true, task: entry?.task, confidence: entry?.confidence, keptGroups: kept, totalGroups: groups.length, reason },
  };
}
