import type { Reply, ToolCall } from "../../scripted-model/index.js";

// The two requests a scripted agent meets and how it acts on them, shared by the replay and the
// faithful agent. A stage request: write the stage's files and run the check command in one
// step (one model call fewer per stage keeps the offline runs short; the check's output is not
// read), then report. The finalization request: show `git status --short`, then submit.

/** What an agent answers when the latest request is none it knows. */
export const UNKNOWN_REQUEST = "I can't tell which task this is.";

/** The reply to a stage request at `step` (assistant turns since the request). */
export function stageReply(options: { workspace: string; stageId: string; writes: Record<string, string>; checkCommand: string; step: number }): Reply {
  const { workspace, writes, checkCommand, step } = options;
  if (step > 0) return { text: `Done with ${options.stageId}.` };
  return {
    toolCalls: [
      ...Object.entries(writes).map(([path, text]) => writeCall(workspace, path, text)),
      bashCall(`cd ${shellQuote(workspace)} && ${checkCommand} || true`, "Run the tests"),
    ],
  };
}

/** The reply to the finalization request at `step`. */
export function finalizeReply(workspace: string, step: number): Reply {
  if (step > 0) return { text: "Submitted." };
  return { toolCalls: [bashCall(`cd ${shellQuote(workspace)} && git status --short`, "Show the changes")] };
}

function writeCall(workspace: string, path: string, content: string): ToolCall {
  return { name: "write", arguments: { filePath: `${workspace.replace(/\/+$/, "")}/${path}`, content } };
}

function bashCall(command: string, description: string): ToolCall {
  return { name: "bash", arguments: { command, description } };
}

function shellQuote(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
