import { RcmError } from "../../../kit/errors/rcm-error.js";
import { atLine, firstIssue, type JsonlEntry, readJsonl } from "../../jsonl/read-jsonl.js";
import { type ResultLine, ResultLineSchema } from "./result-line.js";

/**
 * Reads `results.jsonl`. A torn last line (the process was killed while appending) is
 * ignored; any other bad line is an error naming the file and line.
 */
export async function readResults(file: string): Promise<ResultLine[]> {
  let entries: JsonlEntry[];
  try {
    entries = await readJsonl(file);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
  const results: ResultLine[] = [];
  for (const entry of entries) {
    if (!entry.ok) {
      if (entry.last) continue;
      throw new RcmError("results", atLine(file, entry.line, "not JSON"));
    }
    const parsed = ResultLineSchema.safeParse(withCurrentUsageNames(entry.value));
    if (!parsed.success) throw new RcmError("results", atLine(file, entry.line, firstIssue(parsed.error)));
    results.push(parsed.data);
  }
  return results;
}

/**
 * Lines written before usage counted input with its cached part: their `inputTokens` was
 * OpenCode's uncached input and `cacheReadTokens` the cache reads. Turned into today's
 * `inputTokens` (cached included) and `cachedInputTokens`; anything else is left to the schema.
 */
function withCurrentUsageNames(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const line = { ...(value as Record<string, unknown>) };
  for (const field of ["usage", "resumed_focus"]) line[field] = currentUsage(line[field]);
  return line;
}

function currentUsage(value: unknown): unknown {
  if (typeof value !== "object" || value === null || !("cacheReadTokens" in value)) return value;
  const { cacheReadTokens, ...usage } = value as Record<string, unknown>;
  const counts = [usage.inputTokens, cacheReadTokens, usage.cacheWriteTokens];
  if (!counts.every((count) => typeof count === "number")) return value;
  const [uncached, read, write] = counts as number[];
  return { ...usage, inputTokens: (uncached as number) + (read as number) + (write as number), cachedInputTokens: read };
}
