import { writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { readResults } from "./results/read-results.js";
import { renderReport } from "./results/render-report.js";
import { runFiles } from "./run-bench.js";

/** Rewrites `report.md` from `results.jsonl`; returns the report's path. */
export async function rebuildReport(outDir: string): Promise<string> {
  const files = runFiles(outDir);
  const results = await readResults(files.results);
  if (results.length === 0) throw new Error(`${files.results}: no results to report`);
  await writeFile(files.report, renderReport(results, { title: `Switch-SWE run: ${basename(outDir)}` }));
  return files.report;
}
