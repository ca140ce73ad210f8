import { parseRequestText } from "../suite/request-text.js";

// The scripted agents' answer to OpenCode's compaction request: a summary as a small model
// writes one under pressure. It keeps the conversation's latest request word for word and
// nothing else: every earlier requirement, of every task, is gone from it.

const USER_TURN = /^\[User\]: /m;

/** The summary of a compaction request's conversation (OpenCode's `[User]: ` turns inside `<conversation>`). */
export function lossySummary(compactionText: string): string {
  const latest = latestRequest(compactionText);
  return ["## Objective", `- ${latest ?? "(none)"}`, "", "## Important Details", "- (none)"].join("\n");
}

function latestRequest(text: string): string | undefined {
  const start = text.indexOf("<conversation>");
  const end = text.lastIndexOf("</conversation>");
  const conversation = start === -1 || end === -1 ? text : text.slice(start + "<conversation>".length, end);
  const turns = conversation
    .split(USER_TURN)
    .slice(1)
    .map((turn) => turn.split(/\n\[(?:Assistant|User|Tool)[^\]]*\]: /)[0]?.trim() ?? "");
  for (const turn of turns.reverse()) {
    const request = parseRequestText(turn);
    if (request !== undefined) return `${request.workspace}: ${request.request}`;
  }
  return undefined;
}
