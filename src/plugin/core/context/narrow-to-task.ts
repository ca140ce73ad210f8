import { groupRequestID } from "../interaction-groups.js";
import type { TextPart } from "../messages.js";
import { carriedInNarrowedCall } from "../routing/group-tasks.js";
import { isSettled, type Ledger, type LedgerEntry } from "../routing/ledger.js";
import { type ActiveTask, activeTask, type CallView } from "./call-view.js";
import { type ContextPlan, withAppended, withDropped } from "./context-plan.js";

/** What the model gets below the threshold: every task's history (the paper's), or the tasks the request could belong to. */
export const FALLBACKS = ["full", "candidates"] as const;
export type Fallback = (typeof FALLBACKS)[number];

/** What narrowing did, for the debug line and `/rcm why`. */
export interface NarrowingNote {
  /** False when everything was kept. */
  filtered: boolean;
  /** Requests kept although their place is not settled (they ride along with every task they could be). */
  riding: number;
  task: string | undefined;
  confidence: number | undefined;
  keptGroups: number;
  totalGroups: number;
  reason: string;
}

/**
 * Step: leaves out other tasks' groups. Kept: the current task's groups and those of the
 * tasks it relates to, shared, unassigned and compaction groups, and the latest group; a
 * request whose place is not settled (routed unsure, not yet borne out) rides along with every
 * task it could be, marked as such, so a guess never decides what the call carries or leaves
 * out. Groups go whole, so a tool call never loses its result. Below the confidence threshold
 * everything stays, or with `fallback: "candidates"` every task the decision could not rule
 * out; for a shared instruction, or when the request was not routed, everything stays.
 */
export function narrowToTask(options: {
  view: CallView;
  /** The decisions the groups' requests got, as they stand (relabels and confirmations included). */
  ledger: Ledger;
  plan: ContextPlan;
  threshold: number;
  fallback: Fallback;
  /** The view's `activeTask` at `threshold`, when the caller has it already. */
  active?: ActiveTask | undefined;
}): { plan: ContextPlan; note: NarrowingNote } {
  const { view, ledger, plan, threshold, fallback } = options;
  const { groups, tasks, current } = view;
  const entry = current.kind === "routed" ? current.entry : undefined;
  const keepAll = (reason: string): { plan: ContextPlan; note: NarrowingNote } => ({
    plan,
    note: { filtered: false, riding: 0, task: entry?.task, confidence: entry?.confidence, keptGroups: groups.length, totalGroups: groups.length, reason },
  });
  const active = options.active ?? activeTask(view, threshold);
  const candidates = fallback === "candidates" && entry && !entry.shared && current.kind === "routed" ? entry.candidates : undefined;
  if (active.kind === "none" && candidates === undefined) return keepAll(active.reason);
  const visible = new Set(active.kind === "task" ? [active.task, ...active.entry.related] : candidates);
  const dropped: number[] = [];
  const riding: { index: number; entry: LedgerEntry }[] = [];
  let kept = 0;
  let decision: LedgerEntry | undefined;
  groups.forEach((group, position) => {
    const task = tasks[position];
    // A continuation or an orphan without a decision of its own goes with the request before it.
    if (group.kind === "request" || group.kind === "orphan")
      decision = ledger.decisions[groupRequestID(group)] ?? (group.kind === "request" ? undefined : decision);
    const last = position === groups.length - 1;
    const own = task !== undefined && task.kind === "task" && visible.has(task.task);
    const rides =
      !last && !own && task?.kind === "task" && decision !== undefined && active.kind === "task" && carriedInNarrowedCall(decision, visible, threshold);
    if (last || task === undefined || task.kind === "visible" || own || rides) kept += 1;
    else dropped.push(...group.indices);
    const first = group.indices[0];
    if (
      !last &&
      group.kind === "request" &&
      first !== undefined &&
      decision &&
      active.kind === "task" &&
      (own || rides) &&
      !decision.shared &&
      !isSettled(decision, threshold)
    ) {
      riding.push({ index: first, entry: decision });
    }
  });
  if (dropped.length === 0 && riding.length === 0) return keepAll(`every group belongs to ${[...visible].join(", ")} or is visible`);
  const reason =
    active.kind === "task"
      ? `task ${active.task}${active.entry.related.length > 0 ? ` with ${active.entry.related.join(", ")}` : ""}`
      : `${active.reason}, kept ${[...visible].join(", ")}`;
  let marked = withDropped(plan, dropped);
  for (const { index, entry: unsettled } of riding) {
    const message = view.messages[index];
    if (message) marked = withAppended(marked, index, ridingNote(message.info.sessionID, message.info.id, unsettled));
  }
  return {
    plan: marked,
    note: {
      filtered: dropped.length > 0,
      riding: riding.length,
      task: entry?.task,
      confidence: entry?.confidence,
      keptGroups: kept,
      totalGroups: groups.length,
      reason: riding.length > 0 ? `${reason}; ${riding.length} unsettled request${riding.length === 1 ? "" : "s"} kept, marked` : reason,
    },
  };
}

/** The mark on a request kept although its place is not settled: the model reads it as possibly another task's. */
function ridingNote(sessionID: string, messageID: string, entry: LedgerEntry): TextPart {
  const could = [...new Set([entry.task, ...(entry.pointsTo ?? entry.candidates ?? [])])];
  const text = `[opencode-rcm: not yet sure which task this request belongs to (${could.join(" or ")}); kept in case it is this one]`;
  return { id: "rcm-unsettled", sessionID, messageID, type: "text", text, synthetic: true };
}
