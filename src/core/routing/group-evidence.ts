import type { InteractionGroup } from "../interaction-groups.js";
import { extractSignals } from "./signals.js";
import type { Evidence } from "./task-index.js";

// Code written by an edit can be long; its first lines name what it touches.
const MAX_CODE_CHARS = 2000;
const PATH_KEYS = ["filePath", "file_path", "path"] as const;
const CODE_KEYS = ["newString", "oldString", "content", "patchText"] as const;

/**
 * What an interaction group says about its task: the request text, the files its tools
 * read or changed, the directories they ran in, the symbols in edited code.
 */
export function groupEvidence(group: InteractionGroup): Evidence {
  const paths: string[] = [];
  const workspaces: string[] = [];
  const symbols: string[] = [];
  for (const call of group.toolCalls) {
    const input = call.input;
    for (const key of PATH_KEYS) {
      const value = input[key];
      if (typeof value === "string" && value !== "") paths.push(value);
    }
    const workdir = input["workdir"];
    if (typeof workdir === "string" && workdir.startsWith("/")) workspaces.push(workdir);
    const command = input["command"];
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
  }
  return {
    ...(group.kind === "request" ? { text: group.requestText } : {}),
    paths,
    workspaces,
    symbols,
  };
}
