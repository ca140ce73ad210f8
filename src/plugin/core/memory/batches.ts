import { estimateTokens } from "./estimate-tokens.js";
import type { GroupDigest } from "./group-digest.js";
import type { BatchLimits } from "./updater.js";

/** How much of a tool's output an updater sees; the rest is cut (records need the gist). */
export const TOOL_OUTPUT_CHARS = 1500;

/** A digest with long tool outputs, errors and texts cut, as sent to an updater. */
export function truncateDigest(group: GroupDigest, outputChars = TOOL_OUTPUT_CHARS): GroupDigest {
  return mapDigestTexts(group, (text, kind) => cut(text, kind === "request" ? outputChars * 4 : outputChars));
}

/** A copy of the digest with `map` applied to every text in it (request, steps, tool inputs and outputs). */
export function mapDigestTexts(group: GroupDigest, map: (text: string, kind: "request" | "step") => string): GroupDigest {
  const step = (text: string) => map(text, "step");
  return {
    ...group,
    requestText: map(group.requestText, "request"),
    steps: group.steps.map((item) => {
      if (item.kind === "text") return { ...item, text: step(item.text) };
      const input = Object.fromEntries(Object.entries(item.call.input).map(([key, value]) => [key, typeof value === "string" ? step(value) : value]));
      const call = { ...item.call, input };
      if (call.output !== undefined) call.output = step(call.output);
      if (call.error !== undefined) call.error = step(call.error);
      return { kind: "tool", call };
    }),
  };
}

/** The next batch: groups in order, up to `maxGroups` and `maxTokens` (at least one group). */
export function nextBatch(groups: readonly GroupDigest[], limits: BatchLimits): GroupDigest[] {
  const batch: GroupDigest[] = [];
  let tokens = 0;
  for (const group of groups) {
    const size = estimateTokens(JSON.stringify(truncateDigest(group)));
    if (batch.length > 0 && (batch.length >= limits.maxGroups || tokens + size > limits.maxTokens)) break;
    batch.push(group);
    tokens += size;
  }
  return batch;
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}\n[… ${text.length - chars} more characters cut]` : text;
}
