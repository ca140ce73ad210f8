import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RcmError } from "../errors/rcm-error.js";
import { describeRunAgent } from "./drive/describe-agent.js";
import { writeReports } from "./report/write-reports.js";
import { readResults } from "./run-dir/read-results.js";
import { type ResultLine, resultKey } from "./run-dir/result-line.js";
import { runConfidenceThreshold, runFiles } from "./run-dir/run-files.js";

/** Settings that must be equal for runs to be one run (the shard apart). */
const SAME = ["suite", "modes", "agent", "seed", "budgetMs", "sessions", "confidenceThreshold"] as const;
/** What each session keeps beside its result, small enough to copy: the patch and the reports. */
const KEPT = ["focus.patch", "report.json", "swebench-report.json"];


/**
 * Combines the shards of one run (`bench run --shard i/n` in several places) into `out`: one
 * results.jsonl, report.md, run.json naming its parts, and each session's patch and reports.
 * Refuses runs of different suites or settings, and a session run found in two of them.
 */
export async function mergeRuns(options: { runs: readonly string[]; out: string }): Promise<{ results: number; file: string }> {
  const out = resolve(options.out);
  const runs = options.runs.map((dir) => resolve(dir));
  if (runs.length === 0) throw new RcmError("merge", "bench merge needs at least one run directory");
  if (runs.includes(out)) throw new RcmError("merge", `--out ${out} is one of the runs being merged`);
  if (await stat(runFiles(out).results).catch(() => undefined)) throw new RcmError("merge", `${runFiles(out).results} exists: merge into a new directory`);
  const settings = await Promise.all(runs.map(readRunJson));
  const first = settings[0] as Record<string, unknown>;
  // A run.json from before the threshold was kept ran with the default: the same as one that says so.
  const value = (setting: Record<string, unknown>, field: (typeof SAME)[number]) => (field === "confidenceThreshold" ? runConfidenceThreshold(setting) : setting[field]);
  settings.forEach((setting, index) => {
    for (const field of SAME) {
      if (JSON.stringify(value(setting, field)) !== JSON.stringify(value(first, field))) {
        throw new RcmError("merge", `${runs[index]} differs from ${runs[0]} in ${field}: ${JSON.stringify(value(setting, field))} vs ${JSON.stringify(value(first, field))}`);
      }
    }
  });
  const owner = new Map<string, string>();
  const merged: ResultLine[] = [];
  for (const run of runs) {
    for (const line of await readResults(runFiles(run).results)) {
      const key = resultKey(line);
      const seen = owner.get(key);
      if (seen !== undefined) throw new RcmError("merge", `${line.session_id} in mode ${line.mode} is in both ${seen} and ${run}`);
      owner.set(key, run);
      merged.push(line);
      const from = runFiles(run).session(line.session_id, line.mode);
      const to = runFiles(out).session(line.session_id, line.mode);
      await mkdir(to, { recursive: true });
      for (const file of KEPT) await copyFile(join(from, file), join(to, file)).catch(() => undefined);
    }
  }
  const modes = (first["modes"] as string[] | undefined) ?? [];
  merged.sort((a, b) => modes.indexOf(a.mode) - modes.indexOf(b.mode) || (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0));
  await mkdir(out, { recursive: true });
  const { shard: _shard, ...common } = first;
  await writeFile(runFiles(out).run, `${JSON.stringify({ ...common, parts: runs }, null, 2)}\n`);
  await writeFile(runFiles(out).results, merged.map((line) => `${JSON.stringify(line)}\n`).join(""));
  await writeReports(out, merged, { title: `Switch-SWE run: merged from ${runs.length} parts`, setting: describeRunAgent(first["agent"]), confidenceThreshold: runConfidenceThreshold(first) });
  return { results: merged.length, file: runFiles(out).results };
}

async function readRunJson(dir: string): Promise<Record<string, unknown>> {
  const file = runFiles(dir).run;
  const text = await readFile(file, "utf8").catch(() => {
    throw new RcmError("merge", `${file}: not found: ${dir} is not a bench run directory`);
  });
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new RcmError("merge", `${file}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
