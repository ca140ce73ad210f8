import { estimateTokens } from "./estimate-tokens.js";
import type { GroupDigest } from "./group-digest.js";
import type { BatchLimits } from "./updater.js";

/** How much of a tool's output an updater sees; the rest is cut (records need the gist). */
export const TOOL_OUTPUT_CHARS = 1500;

/** A digest with long tool outputs, errors and texts cut, as sent to an updater. */
export function truncateDigest(group: GroupDigest, outputChars = TOOL_OUTPUT_CHARS): GroupDigest {
  return {
    ...group,
    requestText: cut(group.requestText, outputChars * 4),
    steps: group.steps.map((step) => {
      if (step.kind === "text") return { ...step, text: cut(step.text, outputChars) };
      const call = { ...step.call, input: truncateInput(step.call.input, outputChars) };
      if (call.output !== undefined) call.output = cut(call.output, outputChars);
      if (call.error !== undefined) call.error = cut(call.error, outputChars);
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

function truncateInput(input: Record<string, unknown>, chars: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === "string" ? cut(value, chars) : value]));
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}\n[… ${text.length - chars} more characters cut]` : text;
}
