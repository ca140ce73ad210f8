import { clip } from "../clip.js";
import type { GroupDigest } from "./group-digest.js";

/** Longest quote of the overriding request kept with an overridden constraint. */
const QUOTE_CHARS = 160;

export type OverrideMark = { ok: true; supersededBy: string; supersededWith?: string } | { ok: false; note: string };

/**
 * Checks that `by` may override a constraint from `sources`: it must be a user message of the
 * task, newer than every message the constraint came from. The mark carries the overriding
 * words (the updater's, or else the start of that message), so a rendered record can say
 * which request overrode it.
 */
export function overrideMark(options: {
  by: string;
  because?: string | undefined;
  sources: readonly string[];
  order: ReadonlyMap<string, number>;
  batch: readonly GroupDigest[];
  what: string;
  taskID: string;
}): OverrideMark {
  const { by, because, sources, order, batch, what, taskID } = options;
  const newer = order.get(by);
  const newest = Math.max(...sources.map((source) => order.get(source) ?? -1));
  if (newer === undefined || newer <= newest) return { ok: false, note: `kept ${what}: ${JSON.stringify(by)} is not a newer user message of ${taskID}` };
  const words = quote(because ?? batch.find((group) => group.requestID === by)?.requestText ?? "");
  return { ok: true, supersededBy: by, ...(words === "" ? {} : { supersededWith: words }) };
}

function quote(text: string): string {
  return clip(text.replace(/\s+/g, " ").trim(), QUOTE_CHARS);
}
