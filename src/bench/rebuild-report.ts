import { basename } from "node:path";
import { CliError } from "../cli-error.js";
import { readResults } from "./results/read-results.js";
import { writeReports } from "./results/write-reports.js";
import { runFiles } from "./run-bench.js";

/** Rewrites `report.md` and `report.html` from `results.jsonl`; returns their paths. */
export async function rebuildReport(outDir: string, options: { cacheReadPrice?: number | undefined } = {}): Promise<{ markdown: string; html: string }> {
  const files = runFiles(outDir);
  const results = await readResults(files.results);
  if (results.length === 0) throw new CliError(`${files.results}: no results to report`, { code: "run" });
  return writeReports(outDir, results, { title: `Switch-SWE run: ${basename(outDir)}`, ...options });
}
