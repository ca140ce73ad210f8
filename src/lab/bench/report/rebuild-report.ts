import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import { describeRunAgent, reportHost } from "../drive/describe-agent.js";
import { REGIME_NAMES } from "../drive/regimes.js";
import { readResults } from "../run-dir/read-results.js";
import { readRunOptions, runConfidenceThreshold, runFiles } from "../run-dir/run-files.js";
import { writeReports } from "./write-reports.js";

/** Rewrites `report.md` and `report.html` from `results.jsonl`; returns their paths. */
export async function rebuildReport(outDir: string, options: { cacheReadPrice?: number | undefined } = {}): Promise<{ markdown: string; html: string }> {
  const files = runFiles(outDir);
  const results = await readResults(files.results);
  if (results.length === 0) {
    // `bench mini`'s folder holds a run per regime: say which to report.
    const regimes = REGIME_NAMES.filter((regime) => existsSync(runFiles(join(outDir, regime)).results));
    const hint = regimes.length > 0 ? ` (a bench mini folder: report ${regimes.map((regime) => join(outDir, regime)).join(" or ")})` : "";
    throw new RcmError("run", `${files.results}: no results to report${hint}`);
  }
  // A run directory from before run.json kept the agent still gets its report, without the line
  // (and one from before it kept the plug-in's threshold, the default threshold).
  const run = await readRunOptions(outDir).catch(() => undefined);
  return writeReports(outDir, results, {
    title: `Switch-SWE run: ${basename(outDir)}`,
    setting: describeRunAgent(run?.agent, run?.setting?.host),
    host: reportHost(results, run),
    confidenceThreshold: runConfidenceThreshold(run),
    ...options,
  });
}
