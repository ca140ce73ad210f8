import { RcmError } from "../../errors/rcm-error.js";
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
    const parsed = ResultLineSchema.safeParse(entry.value);
    if (!parsed.success) throw new RcmError("results", atLine(file, entry.line, firstIssue(parsed.error)));
    results.push(parsed.data);
  }
  return results;
}
