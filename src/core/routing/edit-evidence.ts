import type { InteractionGroup } from "../interaction-groups.js";

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
