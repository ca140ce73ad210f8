import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { messageOf } from "../../kit/errors/message-of.js";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { reportSetting } from "./drive/describe-agent.js";
import { writeReports } from "./report/write-reports.js";
import type { RunSetting } from "./run-dir/experiment.js";
import { settingDifferences } from "./run-dir/experiment.js";
import { readResults } from "./run-dir/read-results.js";
import { type ResultLine, resultKey } from "./run-dir/result-line.js";
import { type RunOptions, runConfidenceThreshold, runFiles } from "./run-dir/run-files.js";
import { parseShard, type Shard } from "./shard.js";

/** Settings that must be equal for runs from before run.json kept the setting to be one run (the shard apart). */
const SAME = ["suite", "modes", "agent", "seed", "budgetMs", "sessions", "confidenceThreshold"] as const;
/** For runs that keep it: the setting, and what of the suite they run. */
const SAME_SHAPE = ["modes", "sessions", "conditions"] as const;
/** What each session keeps beside its result, small enough to copy: the patch and the reports. */
const KEPT = ["focus.patch", "report.json", "swebench-report.json"];

/**
 * Combines the shards of one run (`bench run --shard i/n` in several places) into `out`: one
 * results.jsonl, report.md, run.json naming its parts, and each session's patch and reports.
 * Refuses runs of different suites or settings (run.json's, and each result line's), a session
 * run found in two of them, and an incomplete set: a shard missing or a part that did not
 * finish its share, unless `partial`, which the report's title and run.json then say. Everything
 * is checked before anything is written, so a refused merge leaves nothing behind.
 */
export async function mergeRuns(options: {
  runs: readonly string[];
  out: string;
  partial?: boolean;
}): Promise<{ results: number; file: string; missing: string[] }> {
  const out = resolve(options.out);
  const runs = options.runs.map((dir) => resolve(dir));
  if (runs.length === 0) throw new RcmError("merge", "bench merge needs at least one run directory");
  if (runs.includes(out)) throw new RcmError("merge", `--out ${out} is one of the runs being merged`);
  if (await stat(runFiles(out).results).catch(() => undefined)) throw new RcmError("merge", `${runFiles(out).results} exists: merge into a new directory`);
  const settings = await Promise.all(runs.map(readRunJson));
  checkSameSettings(runs, settings);
  const first = settings[0] as Record<string, unknown>;
  const owner = new Map<string, string>();
  const merged: { line: ResultLine; run: string }[] = [];
  const counts = new Map<string, number>();
  for (const run of runs) {
    const lines = await readResults(runFiles(run).results);
    counts.set(run, lines.length);
    for (const line of lines) {
      const key = resultKey(line);
      const seen = owner.get(key);
      if (seen !== undefined) throw new RcmError("merge", `${line.session_id} in mode ${line.mode} is in both ${seen} and ${run}`);
      owner.set(key, run);
      merged.push({ line, run });
    }
  }
  checkLineSettings(merged);
  const missing = missingParts(runs, settings, counts);
  if (missing.length > 0 && options.partial !== true) {
    throw new RcmError(
      "merge",
      `incomplete: ${missing.join("; ")}. Merge every shard once each run is finished, or give --partial to merge what there is (the report says it is partial).`,
    );
  }
  const modes = (first.modes as string[] | undefined) ?? [];
  merged.sort(
    (a, b) =>
      modes.indexOf(a.line.mode) - modes.indexOf(b.line.mode) || (a.line.session_id < b.line.session_id ? -1 : a.line.session_id > b.line.session_id ? 1 : 0),
  );
  await mkdir(out, { recursive: true });
  for (const { line, run } of merged) {
    const from = runFiles(run).session(line.session_id, line.mode);
    const to = runFiles(out).session(line.session_id, line.mode);
    await mkdir(to, { recursive: true });
    for (const file of KEPT) await copyFile(join(from, file), join(to, file)).catch(() => undefined);
  }
  const results = merged.map(({ line }) => line);
  const { shard: _shard, runs_planned: _planned, ...common } = first;
  const partial = missing.length > 0 ? { partial: missing } : {};
  await writeFile(
    runFiles(out).run,
    `${JSON.stringify({ ...common, ...(typeof first.runs_planned === "number" ? { runs_planned: planned(settings) } : {}), parts: runs, ...partial }, null, 2)}\n`,
  );
  await writeFile(runFiles(out).results, results.map((line) => `${JSON.stringify(line)}\n`).join(""));
  const title = `Switch-SWE run: merged from ${runs.length} parts${missing.length > 0 ? ` (PARTIAL: ${missing.join("; ")})` : ""}`;
  await writeReports(out, results, { title, ...reportSetting(results, first as unknown as RunOptions) });
  return { results: results.length, file: runFiles(out).results, missing };
}

/** Every run's setting equals the first's: run.json's setting where kept, else the fields old runs kept. */
function checkSameSettings(runs: readonly string[], settings: readonly Record<string, unknown>[]): void {
  const first = settings[0] as Record<string, unknown>;
  settings.forEach((setting, index) => {
    const differ = (field: string, a: unknown, b: unknown) => {
      throw new RcmError("merge", `${runs[index]} differs from ${runs[0]} in ${field}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    };
    if ((setting.setting === undefined) !== (first.setting === undefined))
      differ("run.json's shape (one was made before run.json kept the setting)", Boolean(setting.setting), Boolean(first.setting));
    if (setting.setting !== undefined) {
      const difference = settingDifferences(first.setting as RunSetting, setting.setting as RunSetting)[0];
      // Shown as the settings say them: 7, roomy, faithful.
      if (difference !== undefined)
        throw new RcmError("merge", `${runs[index]} differs from ${runs[0]} in ${difference.field}: ${difference.asked} vs ${difference.made}`);
      for (const field of SAME_SHAPE) if (JSON.stringify(setting[field]) !== JSON.stringify(first[field])) differ(field, setting[field], first[field]);
      return;
    }
    // A run.json from before the threshold was kept ran with the default: the same as one that says so.
    const value = (of: Record<string, unknown>, field: (typeof SAME)[number]) => (field === "confidenceThreshold" ? runConfidenceThreshold(of) : of[field]);
    for (const field of SAME)
      if (JSON.stringify(value(setting, field)) !== JSON.stringify(value(first, field))) differ(field, value(setting, field), value(first, field));
  });
}

/** Every line ran with the same setting (lines from before lines carried it apart). */
function checkLineSettings(merged: readonly { line: ResultLine; run: string }[]): void {
  const marked = merged.filter(({ line }) => line.setting !== undefined);
  const first = marked[0];
  for (const { line, run } of marked) {
    const difference = settingDifferences(first?.line.setting as RunSetting, line.setting as RunSetting)[0];
    if (difference !== undefined && first !== undefined) {
      throw new RcmError(
        "merge",
        `${run}: ${line.session_id} in ${line.mode} ran with ${difference.field} ${difference.asked}, but ${first.run}: ${first.line.session_id} in ${first.line.mode} with ${difference.made}`,
      );
    }
  }
}

/** What keeps the parts from being the whole run: shards not given, and parts short of their share. */
function missingParts(runs: readonly string[], settings: readonly Record<string, unknown>[], counts: ReadonlyMap<string, number>): string[] {
  const shards = settings.map((setting) => (typeof setting.shard === "string" ? parseShard(setting.shard) : undefined));
  const missing: string[] = [];
  if (shards.some((shard) => shard !== undefined)) {
    if (shards.some((shard) => shard === undefined || typeof shard === "string"))
      throw new RcmError("merge", "some runs are shards (--shard i/n) and some are not: merge the shards of one run");
    const of = shards as Shard[];
    const count = of[0]?.count ?? 0;
    of.forEach((shard, index) => {
      if (shard.count !== count) throw new RcmError("merge", `${runs[index]} is shard ${shard.index}/${shard.count}, but ${runs[0]} is one of ${count}`);
      const twin = of.findIndex((other) => other.index === shard.index);
      if (twin !== index) throw new RcmError("merge", `shard ${shard.index}/${count} is given twice: ${runs[twin]} and ${runs[index]}`);
    });
    for (let index = 1; index <= count; index += 1) if (!of.some((shard) => shard.index === index)) missing.push(`shard ${index}/${count} not given`);
  }
  runs.forEach((run, index) => {
    const planned = settings[index]?.runs_planned;
    const have = counts.get(run) ?? 0;
    if (typeof planned === "number" && have < planned) missing.push(`${run} has ${have} of its ${planned} session runs (rerun its command to finish it)`);
  });
  return missing;
}

/** The whole run's planned session runs: the shards' shares add up to it. */
function planned(settings: readonly Record<string, unknown>[]): number {
  const first = settings[0] ?? {};
  // With resumed sessions the count is not sessions x modes: the shards' shares add up to it.
  if (Array.isArray(first.conditions)) return settings.reduce((sum, part) => sum + (typeof part.runs_planned === "number" ? part.runs_planned : 0), 0);
  const modes = Array.isArray(first.modes) ? first.modes.length : 0;
  return typeof first.sessions === "number" ? first.sessions * modes : 0;
}

async function readRunJson(dir: string): Promise<Record<string, unknown>> {
  const file = runFiles(dir).run;
  const text = await readFile(file, "utf8").catch(() => {
    throw new RcmError("merge", `${file}: not found: ${dir} is not a bench run directory`);
  });
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new RcmError("merge", `${file}: not JSON: ${messageOf(error)}`);
  }
}
