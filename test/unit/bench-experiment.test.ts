import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportSetting } from "../../src/lab/bench/drive/describe-agent.js";
import { mergeRuns } from "../../src/lab/bench/merge-runs.js";
import type { RunSetting } from "../../src/lab/bench/run-dir/experiment.js";
import { type ExperimentRequest, openExperiment } from "../../src/lab/bench/run-dir/open-experiment.js";
import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";
import { resultLine } from "../support/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

// A run directory is one experiment: its setting is fixed when it is made, every line carries
// it, and neither a rerun nor a merge can put other settings' labels on its results.

const SETTING: RunSetting = {
  suite: "switch-mini",
  suite_sha256: "a".repeat(64),
  agent: "faithful",
  regime: "roomy",
  seed: 1,
  budget_ms: 900_000,
  max_continuations: 3,
  test_timeout_ms: 900_000,
  confidence_threshold: 0.8,
  fallback: "full",
  plugin_version: "0.1.0",
  env: "local",
};

function line(session: string, mode: ResultLine["mode"], setting: RunSetting = SETTING): ResultLine {
  return resultLine({ session_id: session, mode, resolved: false, failure_class: "implementation", setting });
}

function request(overrides: Partial<ExperimentRequest> & { setting?: RunSetting } = {}): ExperimentRequest {
  return {
    suiteDir: "/suites/switch-mini",
    setting: SETTING,
    agent: { kind: "faithful" },
    modes: ["native", "router"],
    sessions: 2,
    runsPlanned: (modes, sessions) => modes.length * sessions,
    ...overrides,
  };
}

let temp: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir("rcm-experiment");
});
afterEach(async () => temp.remove());

describe("a run directory is one experiment", () => {
  it("refuses a rerun with another agent, regime or threshold, showing both settings, and writes nothing", async () => {
    const out = join(temp.path, "run");
    await mkdir(out);
    await openExperiment(out, request());
    const before = await readFile(join(out, "run.json"), "utf8");
    await expect(openExperiment(out, request({ setting: { ...SETTING, agent: "scripted" } }))).rejects.toThrow(
      /agent: faithful \(run\.json\) vs scripted \(this command\)/,
    );
    await expect(openExperiment(out, request({ setting: { ...SETTING, regime: "tight" } }))).rejects.toThrow(
      /regime: roomy \(run\.json\) vs tight \(this command\)/,
    );
    await expect(openExperiment(out, request({ setting: { ...SETTING, confidence_threshold: 0.6, suite_sha256: "b".repeat(64) } }))).rejects.toThrow(
      /suite_sha256: a+ \(run\.json\) vs b+ .*\n {2}confidence_threshold: 0\.8 \(run\.json\) vs 0\.6/,
    );
    expect(await readFile(join(out, "run.json"), "utf8")).toBe(before);
  });

  it("grows by modes and sessions, recorded in run.json; fewer modes leave it as it was", async () => {
    const out = join(temp.path, "run");
    await mkdir(out);
    expect((await openExperiment(out, request())).added).toEqual([]);
    const grown = await openExperiment(out, request({ modes: ["full", "native"], sessions: 4 }));
    expect(grown.added).toEqual(["modes full", "sessions 3-4"]);
    expect(grown.run).toMatchObject({ modes: ["native", "router", "full"], sessions: 4, runs_planned: 12, extended: [{ modes: ["full"], sessions: 4 }] });
    const subset = await openExperiment(out, request({ modes: ["router"], sessions: 1 }));
    expect(subset.run).toMatchObject({ modes: ["native", "router", "full"], sessions: 4, runs_planned: 12 });
    expect(subset.added).toEqual([]);
  });

  it("reads what the result lines say they ran with: a line of another setting refuses the run", async () => {
    const out = join(temp.path, "run");
    await mkdir(out);
    await writeFile(join(out, "results.jsonl"), `${JSON.stringify(line("s1", "native", { ...SETTING, agent: "scripted" }))}\n`);
    await expect(openExperiment(out, request())).rejects.toThrow(/agent: scripted \(results\.jsonl, s1 in native\) vs faithful/);
  });

  it("keeps a shard's modes and sessions: they decide its share", async () => {
    const out = join(temp.path, "shard");
    await mkdir(out);
    await openExperiment(out, request({ shard: "1/2" }));
    await expect(openExperiment(out, request({ shard: "1/2", modes: ["native", "router", "full"] }))).rejects.toThrow(
      /is shard 1\/2: .* cannot add modes full/,
    );
    await expect(openExperiment(out, request({ shard: "2/2" }))).rejects.toThrow(/shard: 1\/2 \(run\.json\) vs 2\/2/);
  });

  it("compares a run.json from before the setting was kept on what it kept", async () => {
    const out = join(temp.path, "old");
    await mkdir(out);
    await writeFile(
      join(out, "run.json"),
      JSON.stringify({ suite: "/s", modes: ["native"], agent: { kind: "faithful", regime: "tight" }, seed: 1, budgetMs: 900_000, sessions: 2 }),
    );
    await expect(openExperiment(out, request())).rejects.toThrow(/regime: tight \(run\.json\) vs roomy/);
    await writeFile(
      join(out, "run.json"),
      JSON.stringify({ suite: "/s", modes: ["native"], agent: { kind: "faithful" }, seed: 1, budgetMs: 900_000, sessions: 2 }),
    );
    expect((await openExperiment(out, request())).run.setting).toEqual(SETTING);
  });

  it("labels a report by its lines' setting, and says so when the lines disagree", () => {
    expect(reportSetting([line("s1", "native")]).setting).toMatch(/^Agent: the faithful scripted agent .* Regime: roomy/);
    const mixed = reportSetting([line("s1", "native"), line("s2", "native", { ...SETTING, agent: "scripted" })]).setting;
    expect(mixed).toMatch(/^Mixed settings, not one experiment: 1 lines: faithful \(roomy\).*; 1 lines: scripted \(roomy\)/);
  });
});

describe("bench merge checks completeness", () => {
  async function shard(name: string, index: number, count: number, sessions: string[], planned: number): Promise<string> {
    const dir = join(temp.path, name);
    await mkdir(dir, { recursive: true });
    const run = {
      suite: "/s",
      setting: SETTING,
      agent: { kind: "faithful" },
      modes: ["native"],
      sessions: 4,
      shard: `${index}/${count}`,
      runs_planned: planned,
    };
    await writeFile(join(dir, "run.json"), JSON.stringify(run));
    await writeFile(join(dir, "results.jsonl"), sessions.map((session) => `${JSON.stringify(line(session, "native"))}\n`).join(""));
    return dir;
  }

  it("refuses a missing shard or an unfinished one, naming them, and writes nothing; --partial merges and says so", async () => {
    const one = await shard("one", 1, 2, ["s1", "s2"], 2);
    const out = join(temp.path, "merged");
    await expect(mergeRuns({ runs: [one], out })).rejects.toThrow(/incomplete: shard 2\/2 not given/);
    const unfinished = await shard("two", 2, 2, ["s3"], 2);
    await expect(mergeRuns({ runs: [one, unfinished], out })).rejects.toThrow(/two has 1 of its 2 session runs/);
    expect(await readdir(temp.path)).toEqual(expect.not.arrayContaining(["merged"]));
    const partial = await mergeRuns({ runs: [one], out, partial: true });
    expect(partial.missing).toEqual(["shard 2/2 not given"]);
    expect(JSON.parse(await readFile(join(out, "run.json"), "utf8")).partial).toEqual(["shard 2/2 not given"]);
    expect(await readFile(join(out, "report.md"), "utf8")).toMatch(/PARTIAL: shard 2\/2 not given/);
  });

  it("refuses a shard given twice and lines that ran with another setting", async () => {
    const one = await shard("one", 1, 2, ["s1", "s2"], 2);
    const again = await shard("again", 1, 2, ["s3", "s4"], 2);
    await expect(mergeRuns({ runs: [one, again], out: join(temp.path, "m1") })).rejects.toThrow(/shard 1\/2 is given twice/);
    const two = await shard("two", 2, 2, ["s3", "s4"], 2);
    await writeFile(
      join(two, "results.jsonl"),
      `${JSON.stringify(line("s3", "native"))}\n${JSON.stringify(line("s4", "native", { ...SETTING, regime: "tight" }))}\n`,
    );
    await expect(mergeRuns({ runs: [one, two], out: join(temp.path, "m2") })).rejects.toThrow(/s4 in native ran with regime tight/);
  });
});
