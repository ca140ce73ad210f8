import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { repoSource } from "./checkout/prepare-checkouts.js";
import { rebuildReport } from "./report/rebuild-report.js";
import { readResults } from "./run-dir/read-results.js";
import { readRunOptions, runFiles } from "./run-dir/run-files.js";
import { failureClass, focusPatch, scoreTask } from "./score/index.js";
import { loadSuite } from "./suite/load-suite.js";

/**
 * Scores every session of a run again (after a scorer fix, or with another Python): the focus
 * checkout's changes where the run kept the checkouts, else its focus.patch; rewrites
 * `results.jsonl` atomically and rebuilds `report.md`.
 */
export async function rescoreRun(outDir: string): Promise<string> {
  const files = runFiles(outDir);
  const suite = await loadSuite((await readRunOptions(outDir)).suite);
  const results = await readResults(files.results);
  let changed = 0;
  for (const line of results) {
    const task = suite.tasks.find((candidate) => candidate.instance_id === line.focus);
    if (!task) throw new RcmError("run", `${files.results}: session ${line.session_id} names unknown task ${line.focus}`);
    const dir = files.session(line.session_id, line.mode);
    // From the focus checkout where the run kept it (--keep), else the patch the run took from it.
    const checkout = join(dir, line.focus_workspace);
    const patch = existsSync(checkout) ? await focusPatch(checkout, task.base_commit) : await readFile(join(dir, "focus.patch"), "utf8");
    await writeFile(join(dir, "focus.patch"), patch);
    const report = await scoreTask({ task, repoSource: repoSource(suite, task), patch, workDir: join(dir, "scoring") });
    await writeFile(join(dir, "report.json"), `${JSON.stringify({ [task.instance_id]: report }, null, 2)}\n`);
    const kind = failureClass({ finalized: line.finalized, errored: line.error !== undefined, budgetExhausted: line.budget_exhausted, report });
    if (kind !== line.failure_class) changed += 1;
    Object.assign(line, { resolved: kind === "resolved", failure_class: kind, patch_bytes: Buffer.byteLength(patch) });
  }
  const temp = `${files.results}.${process.pid}.tmp`;
  await writeFile(temp, results.map((line) => `${JSON.stringify(line)}\n`).join(""));
  await rename(temp, files.results);
  const report = await rebuildReport(outDir);
  return `re-scored ${results.length} session runs (${changed} changed); ${report.markdown} and ${report.html} rebuilt`;
}
