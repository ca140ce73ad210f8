import { readFile } from "node:fs/promises";
import { CliError } from "../../cli-error.js";
import { type ResultLine, ResultLineSchema } from "./result-line.js";

/**
 * Reads `results.jsonl`. A torn last line (the process was killed while appending) is
 * ignored; any other bad line is an error naming the file and line.
 */
export async function readResults(file: string): Promise<ResultLine[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
  const lines = text.split("\n");
  const results: ResultLine[] = [];
  lines.forEach((raw, index) => {
    if (raw.trim() === "") return;
    const last = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (last) return;
      throw new CliError(`${file}:${index + 1}: not JSON`, { code: "results" });
    }
    const parsed = ResultLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CliError(`${file}:${index + 1}: ${issue?.path.join(".") || "(line)"}: ${issue?.message ?? "invalid"}`, { code: "results" });
    }
    results.push(parsed.data);
  });
  return results;
}
