import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import { rebuildReport } from "../report/rebuild-report.js";
import { readResults } from "../run-dir/read-results.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { runFiles } from "../run-dir/run-files.js";
import { parsePredictionName } from "./predictions.js";

/** One instance's entry of the harness's `report.json` (fields as in SWE-bench 4.x and 5.x). */
const HarnessReportSchema = z.record(
  z.string(),
  z
    .object({
      resolved: z.boolean(),
      patch_successfully_applied: z.boolean().optional(),
      patch_exists: z.boolean().optional(),
      tests_status: z.record(z.string(), z.object({ success: z.array(z.string()), failure: z.array(z.string()) })).optional(),
    })
    .passthrough(),
);

export interface ImportReportsSummary {
  reports: number;
  updated: number;
  /** Reports whose run name or instance matches no result of the run, by file. */
  unmatched: string[];
}

/**
 * Reads the harness's per-instance `report.json` files (`logs/run_evaluation/<run_id>/<name>/
 * <instance_id>/report.json`, `<name>` as `bench export-predictions` wrote it) into the run's
 * `results.jsonl` (resolved, scored_by "swebench"), keeps each report beside the session's
 * own as `swebench-report.json`, and rebuilds `report.md`.
 */
export async function importReports(options: { run: string; reports: string }): Promise<ImportReportsSummary> {
  const run = resolve(options.run);
  const files = runFiles(run);
  const results = await readResults(files.results);
  const byKey = new Map(results.map((line, index) => [`${line.mode}\u0000${line.condition}\u0000${line.focus}`, index]));
  const found = await reportFiles(resolve(options.reports));
  if (found.length === 0) throw new RcmError("swebench-reports", `${options.reports}: no report.json files`);
  const updated: ResultLine[] = [...results];
  const unmatched: string[] = [];
  let changed = 0;
  for (const file of found) {
    const name = parsePredictionName(basename(dirname(dirname(file))));
    let parsed: z.infer<typeof HarnessReportSchema>;
    try {
      parsed = HarnessReportSchema.parse(JSON.parse(await readFile(file, "utf8")));
    } catch (error) {
      throw new RcmError(
        "swebench-reports",
        `${file}: not a SWE-bench report.json: ${error instanceof z.ZodError ? error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ") : String(error)}`,
      );
    }
    for (const [instance, report] of Object.entries(parsed)) {
      const index = name === undefined ? undefined : byKey.get(`${name.mode}\u0000${name.condition}\u0000${instance}`);
      const line = index === undefined ? undefined : updated[index];
      if (index === undefined || line === undefined) {
        unmatched.push(file);
        continue;
      }
      const failure = report.resolved ? "resolved" : line.failure_class === "resolved" ? "implementation" : line.failure_class;
      updated[index] = { ...line, resolved: report.resolved, failure_class: failure, scored_by: "swebench" };
      await writeFile(join(files.session(line.session_id, line.mode), "swebench-report.json"), `${JSON.stringify({ [instance]: report }, null, 2)}\n`);
      changed += 1;
    }
  }
  // Whole-file replace, so an interruption leaves the old results or the new ones.
  const temporary = `${files.results}.importing`;
  await writeFile(temporary, updated.map((line) => `${JSON.stringify(line)}\n`).join(""));
  await rename(temporary, files.results);
  await rebuildReport(run);
  return { reports: found.length, updated: changed, unmatched };
}

async function reportFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: unknown) => {
    throw new RcmError("swebench-reports", `${dir}: cannot read: ${messageOf(error)}`);
  });
  return entries
    .filter((entry) => entry.isFile() && entry.name === "report.json")
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
