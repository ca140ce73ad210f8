import { type ChatMessage, messageText } from "../../scripted-model/index.js";
import { FINALIZE_REQUEST, parseRequestText } from "../suite/request-text.js";

/** The request a call works on, found in the messages it was sent. */
export type Recognised<S> =
  | { kind: "stage"; workspace: string; stage: S; step: number }
  | { kind: "finalize"; workspace: string; step: number }
  | { kind: "unknown" };

/**
 * The request in the latest user message (`<workspace>: <request>`, the whole text or any one
 * text part, with the request exactly a known stage's or the finalization request), and the
 * step: the assistant messages since it. With `continues`, a later user message that is no
 * request (the "Continue" OpenCode adds after a compaction) does not hide the request it
 * continues; without, such a message is an unknown request.
 */
export function recogniseRequest<S>(messages: readonly ChatMessage[], stages: ReadonlyMap<string, S>, options: { continues: boolean }): Recognised<S> {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "user") continue;
    const found = requestIn(message.content, stages);
    if (found === undefined) {
      if (options.continues) continue;
      return { kind: "unknown" };
    }
    const step = messages.slice(index + 1).filter((later) => later.role === "assistant").length;
    return { ...found, step };
  }
  return { kind: "unknown" };
}

type Found<S> = { kind: "stage"; workspace: string; stage: S } | { kind: "finalize"; workspace: string };

function requestIn<S>(content: unknown, stages: ReadonlyMap<string, S>): Found<S> | undefined {
  const parts = Array.isArray(content) ? content.map((part: unknown) => messageText([part])) : [];
  for (const text of [messageText(content), ...parts]) {
    const parsed = parseRequestText(text);
    if (parsed === undefined) continue;
    if (parsed.request === FINALIZE_REQUEST) return { kind: "finalize", workspace: parsed.workspace };
    const stage = stages.get(parsed.request);
    if (stage !== undefined) return { kind: "stage", workspace: parsed.workspace, stage };
  }
  return undefined;
}
