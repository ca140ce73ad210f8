import type { InteractionGroup, ToolCallSummary } from "../interaction-groups.js";
import { extractSignals } from "./signals.js";
import type { Evidence } from "./task-index.js";

// Code written by an edit can be long; its first lines name what it touches.
const MAX_CODE_CHARS = 2000;
const PATH_KEYS = ["filePath", "file_path", "path"] as const;
const CODE_KEYS = ["newString", "oldString", "content", "patchText"] as const;

/** What a tool call says about its task: the files it touched, where it ran, the symbols it wrote. */
export function toolCallEvidence(call: ToolCallSummary): Evidence {
  const paths: string[] = [];
  const workspaces: string[] = [];
  const symbols: string[] = [];
  const input = call.input;
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === "string" && value !== "") paths.push(value);
  }
  const workdir = input.workdir;
  if (typeof workdir === "string" && workdir.startsWith("/")) workspaces.push(workdir);
  const command = input.command;
  if (typeof command === "string") {
    const signals = extractSignals(command.slice(0, MAX_CODE_CHARS));
    paths.push(...signals.paths);
    workspaces.push(...signals.workspaces);
    symbols.push(...signals.symbols);
  }
  for (const key of CODE_KEYS) {
    const value = input[key];
    if (typeof value === "string" && value !== "") symbols.push(...extractSignals(value.slice(0, MAX_CODE_CHARS)).symbols);
  }
  return { paths, workspaces, symbols };
}

/** Evidence already folded into the index: request texts by group id, tool calls by call id. */
export interface FoldedEvidence {
  requests: Set<string>;
  toolCalls: Set<string>;
}

/**
 * The evidence of `group` not yet in `folded`, and marks it folded. A group's request text
 * counts once; each tool call counts once, when it has finished. So a group can be folded
 * while its turn is still running and again later, without counting anything twice.
 */
export function newEvidence(group: InteractionGroup, folded: FoldedEvidence): Evidence[] {
  const found: Evidence[] = [];
  if (group.kind === "request" && !folded.requests.has(group.id)) {
    folded.requests.add(group.id);
    found.push({ text: group.requestText });
  }
  for (const call of group.toolCalls) {
    if ((call.status !== "completed" && call.status !== "error") || folded.toolCalls.has(call.callID)) continue;
    folded.toolCalls.add(call.callID);
    found.push(toolCallEvidence(call));
  }
  return found;
}
