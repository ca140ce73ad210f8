import type { InteractionGroup } from "../interaction-groups.js";
import { toolCallEvidence } from "./group-evidence.js";
import { groupTasks } from "./group-tasks.js";
import { isConfident, type Ledger } from "./ledger.js";
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

/**
 * Whether a group's request could be relabelled at all: routed below the threshold, not by
 * the user's word nor relabelled before, and its turn edited something. Cheap: callers ask
 * it before `relabelsOf` walks the history.
 */
export function mayRelabel(options: { group: InteractionGroup; ledger: Ledger; threshold: number }): boolean {
  const { group, ledger, threshold } = options;
  const entry = group.kind === "request" ? ledger.decisions[group.id] : undefined;
  if (!entry || entry.shared || entry.router === "user" || entry.relabelled || isConfident(entry, threshold)) return false;
  return group.toolCalls.some((call) => call.status === "completed" && EDIT_TOOLS.has(call.tool));
}

/** A request the session relabels: its edits belong to `task`. */
export interface Relabel {
  messageID: string;
  task: string;
  files: string[];
}

/**
 * The finished requests (groups before `finishedBefore`) whose edits show they belong to
 * another task than the one they were routed to with too little confidence to hide
 * history. A sure decision stands, and so does the user's word and an earlier relabel.
 * Files count by exact path: the same relative path in two checkouts is two files.
 */
export function relabelsOf(options: { groups: readonly InteractionGroup[]; ledger: Ledger; threshold: number; finishedBefore: number }): Relabel[] {
  const { groups, ledger, threshold, finishedBefore } = options;
  const tasks = groupTasks(groups, ledger);
  const owners = new Map<string, Set<string>>();
  const relabels: Relabel[] = [];
  let relabelledTo: string | undefined;
  groups.forEach((group, position) => {
    const resolved = tasks[position];
    let task = resolved?.kind === "task" ? resolved.task : undefined;
    if (group.kind === "request") relabelledTo = undefined;
    if (task !== undefined && position < finishedBefore && mayRelabel({ group, ledger, threshold })) {
      const edited = editedPaths(group);
      const owner = evidenceOwner({ routedTo: task, edited, ownersOf: (path) => [...(owners.get(path) ?? [])] });
      if (owner !== undefined) {
        relabels.push({ messageID: group.id, task: owner, files: edited });
        relabelledTo = owner;
      }
    }
    // The turn's continuations carry on where its request went.
    if (relabelledTo !== undefined && group.kind !== "compaction") task = relabelledTo;
    if (task === undefined) return;
    for (const path of touchedPaths(group)) {
      let set = owners.get(path);
      if (!set) owners.set(path, (set = new Set()));
      set.add(task);
    }
  });
  return relabels;
}

function touchedPaths(group: InteractionGroup): string[] {
  return [...extractSignals(group.requestText).paths, ...group.toolCalls.flatMap((call) => toolCallEvidence(call).paths ?? [])];
}
