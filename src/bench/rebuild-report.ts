import { basename } from "node:path";
import { CliError } from "../cli-error.js";
import { readResults } from "./results/read-results.js";
import { writeReports } from "./results/write-reports.js";
import { readRunOptions, runFiles } from "./run-bench.js";
import { describeRunAgent } from "./drive/describe-agent.js";

/** Rewrites `report.md` and `report.html` from `results.jsonl`; returns their paths. */
export async function rebuildReport(outDir: string, options: { cacheReadPrice?: number | undefined } = {}): Promise<{ markdown: string; html: string }> {
  const files = runFiles(outDir);
  const results = await readResults(files.results);
  if (results.length === 0) throw new CliError(`${files.results}: no results to report`, { code: "run" });
  // A run directory from before run.json kept the agent still gets its report, without the line.
  const agent = await readRunOptions(outDir).then((run) => run.agent, () => undefined);
  return writeReports(outDir, results, { title: `Switch-SWE run: ${basename(outDir)}`, setting: describeRunAgent(agent), ...options });
}
