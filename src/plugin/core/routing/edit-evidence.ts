import type { InteractionGroup } from "../interaction-groups.js";
import { toolCallEvidence } from "./group-evidence.js";
import { evidenceTasks } from "./group-tasks.js";
import { isSettled, type Ledger } from "./ledger.js";
import { extractSignals } from "./signals.js";

// OpenCode's tools that change a file; what a turn reads says less than what it edits.
const EDIT_TOOLS = new Set(["edit", "write", "patch", "multiedit", "apply_patch"]);
const PATH_KEYS = ["filePath", "file_path", "path"] as const;

/** The files a group's finished tool calls edited (not read), in call order, each once. */
export function editedPaths(group: InteractionGroup): string[] {
  const paths = new Set<string>();
  for (const call of group.toolCalls) {
    if (call.status !== "completed" || !EDIT_TOOLS.has(call.tool)) continue;
    for (const key of PATH_KEYS) {
      const value = call.input[key];
      if (typeof value === "string" && value !== "") paths.add(value);
    }
  }
  return [...paths];
}

/**
 * The task the request's work says it belongs to, if not the one it was routed to: every
 * file the turn edited belongs to one other task, and none to the routed one. A turn that
 * also edits its own task's files, or a file nobody touched, or files of two tasks, says
 * nothing. `ownersOf` gives the tasks that touched a path before this request.
 */
export function evidenceOwner(options: { routedTo: string; edited: readonly string[]; ownersOf: (path: string) => readonly string[] }): string | undefined {
  const { routedTo, edited, ownersOf } = options;
  let owner: string | undefined;
  for (const path of edited) {
    const owners = ownersOf(path);
    if (owners.length !== 1 || owners[0] === routedTo) return undefined;
    if (owner !== undefined && owners[0] !== owner) return undefined;
    owner = owners[0];
  }
  return owner;
}

/** What a turn's edits make of an unsure decision: another task's work, its own task's, or nothing sure. */
export type EditVerdict = { kind: "relabel"; task: string } | { kind: "confirm" };

/**
 * An unsure decision settled by its turn's edits: relabelled where they all landed in one
 * other task's files (unless it opened a task); confirmed where none landed in another task's files and some landed
 * in its own task's (or, for a task the request opened, anywhere no task had touched).
 */
export function editVerdict(options: {
  routedTo: string;
  opened: boolean;
  edited: readonly string[];
  ownersOf: (path: string) => readonly string[];
  /**
   * The tasks the request itself pointed to (its decision's `pointsTo`): the edits settle it only
   * in one of them, since the model may have edited where it guessed from its context, not where
   * the user meant. Undefined (a decision from before, or the model router's): any task.
   */
  pointsTo?: readonly string[] | undefined;
}): EditVerdict | undefined {
  const { routedTo, opened, edited, ownersOf, pointsTo } = options;
  if (edited.length === 0) return undefined;
  const agrees = (task: string) => pointsTo === undefined || pointsTo.includes(task);
  const owner = evidenceOwner(options);
  // A task opened unsure whose work lands in another task's file is that task's neighbour as
  // often as a part of it (two issues in one file): it stays unsure.
  if (owner !== undefined) return opened || !agrees(owner) ? undefined : { kind: "relabel", task: owner };
  const owners = edited.map(ownersOf);
  if (owners.some((tasks) => tasks.some((task) => task !== routedTo))) return undefined;
  if (opened) return { kind: "confirm" };
  return owners.some((tasks) => tasks.includes(routedTo)) && agrees(routedTo) ? { kind: "confirm" } : undefined;
}

/** The files a group's finished calls other than edits touched (read, searched, listed, ran tests on), each once. */
export function readPaths(group: InteractionGroup): string[] {
  const paths = new Set<string>();
  for (const call of group.toolCalls) {
    if (call.status !== "completed" || EDIT_TOOLS.has(call.tool)) continue;
    for (const path of toolCallEvidence(call).paths ?? []) paths.add(path);
  }
  return [...paths];
}

/**
 * Whether a group's request could be settled by its work at all: routed below the
 * threshold, not by the user's word nor settled before, and its turn touched a file.
 * Cheap: callers ask it before `settlementsOf` walks the history.
 */
export function maySettle(options: { group: InteractionGroup; ledger: Ledger; threshold: number }): boolean {
  const { group, ledger, threshold } = options;
  const entry = group.kind === "request" ? ledger.decisions[group.id] : undefined;
  if (!entry || entry.shared || isSettled(entry, threshold)) return false;
  return group.toolCalls.some((call) => call.status === "completed" && (EDIT_TOOLS.has(call.tool) || (toolCallEvidence(call).paths ?? []).length > 0));
}

/** A request the session settles by its edits: relabelled to `task`, or confirmed in it. */
export interface Settlement {
  messageID: string;
  kind: EditVerdict["kind"];
  task: string;
  files: string[];
}

/**
 * The finished requests (groups before `finishedBefore`) whose edits settle a decision made
 * with too little confidence to hide history. Ownership of files comes from settled work
 * only (an unsure turn's files are nobody's), and counts by exact path: the same relative
 * path in two checkouts is two files.
 */
export function settlementsOf(options: { groups: readonly InteractionGroup[]; ledger: Ledger; threshold: number; finishedBefore: number }): Settlement[] {
  const { groups, ledger, threshold, finishedBefore } = options;
  const tasks = evidenceTasks(groups, ledger, threshold);
  const owners = new Map<string, Set<string>>();
  const settlements: Settlement[] = [];
  let settledTo: string | undefined;
  groups.forEach((group, position) => {
    let task = tasks[position];
    if (group.kind === "request") settledTo = undefined;
    const entry = group.kind === "request" ? ledger.decisions[group.id] : undefined;
    if (entry && position < finishedBefore && maySettle({ group, ledger, threshold })) {
      // What a turn edits settles it; a turn that edits nothing settles by what it read, searched or tested,
      // though reading files nobody had says nothing of a task it opened.
      const edits = editedPaths(group);
      const edited = edits.length > 0 ? edits : entry.opened ? [] : readPaths(group);
      const verdict = editVerdict({
        routedTo: entry.task,
        opened: entry.opened,
        edited,
        ownersOf: (path) => [...(owners.get(path) ?? [])],
        pointsTo: entry.pointsTo,
      });
      if (verdict !== undefined) {
        settledTo = verdict.kind === "relabel" ? verdict.task : entry.task;
        settlements.push({ messageID: group.id, kind: verdict.kind, task: settledTo, files: edited });
      }
    }
    // The turn's continuations carry on where its request was settled.
    if (settledTo !== undefined && group.kind !== "compaction") task = settledTo;
    if (task === undefined) return;
    for (const path of touchedPaths(group)) {
      let set = owners.get(path);
      if (!set) {
        set = new Set();
        owners.set(path, set);
      }
      set.add(task);
    }
  });
  return settlements;
}

function touchedPaths(group: InteractionGroup): string[] {
  return [...extractSignals(group.requestText).paths, ...group.toolCalls.flatMap((call) => toolCallEvidence(call).paths ?? [])];
}
