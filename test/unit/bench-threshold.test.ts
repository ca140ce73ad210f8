import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pluginConfidenceThreshold } from "../../src/lab/bench/drive/plugin-env.js";
import { mergeRuns } from "../../src/lab/bench/merge-runs.js";
import { rebuildReport } from "../../src/lab/bench/report/rebuild-report.js";
import { confidenceBins } from "../../src/lab/bench/report-html/palette.js";
import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";
import { runConfidenceThreshold } from "../../src/lab/bench/run-dir/run-files.js";
import { THRESHOLD as DEFAULT_CONFIDENCE_THRESHOLD } from "../support/defaults.js";
import { resultLine } from "../support/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

// The report colours routing confidence against the threshold the plug-in ran with, kept in
// run.json; a run.json from before it was kept gets the default.

const line: ResultLine = resultLine({
  mode: "router",
  timeline: [{ task: "F", stage: "s", continuation: false, routed_to: "t1", confidence: 0.7, fallback: false, call_input_tokens: [100] }],
});

describe("the plug-in's confidence threshold in a bench run", () => {
  it("is what the forwarded RCM_CONFIDENCE_THRESHOLD sets, resolved as the plug-in does, else the default", () => {
    expect(pluginConfidenceThreshold({ RCM_CONFIDENCE_THRESHOLD: "0.6" })).toBe(0.6);
    expect(pluginConfidenceThreshold({ RCM_CONFIDENCE_THRESHOLD: "2" })).toBe(DEFAULT_CONFIDENCE_THRESHOLD);
    expect(pluginConfidenceThreshold({})).toBe(DEFAULT_CONFIDENCE_THRESHOLD);
  });

  it("is read back from run.json; an old run.json without it gives the default", () => {
    expect(runConfidenceThreshold({ confidenceThreshold: 0.6 })).toBe(0.6);
    expect(runConfidenceThreshold({})).toBe(DEFAULT_CONFIDENCE_THRESHOLD);
    expect(runConfidenceThreshold(undefined)).toBe(DEFAULT_CONFIDENCE_THRESHOLD);
  });

  it("bins confidence around it: the default bins are the report's old ones", () => {
    expect(confidenceBins(DEFAULT_CONFIDENCE_THRESHOLD).map((bin) => [bin.from, bin.name])).toEqual([
      [0.95, "≥ 0.95"],
      [0.8, "0.8 – 0.95"],
      [0.5, "0.5 – 0.8"],
      [0, "< 0.5"],
    ]);
    expect(confidenceBins(0.6).map((bin) => [bin.from, bin.name])).toEqual([
      [0.95, "≥ 0.95"],
      [0.6, "0.6 – 0.95"],
      [0.5, "0.5 – 0.6"],
      [0, "< 0.5"],
    ]);
  });

  describe("in the rebuilt report", () => {
    let temp: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir("rcm-threshold");
      await mkdir(temp.path, { recursive: true });
      await writeFile(join(temp.path, "results.jsonl"), `${JSON.stringify(line)}\n`);
    });
    afterEach(async () => temp.remove());

    const dot = async () => /<circle class="mark" data-confidence="0.7"[^>]* fill="([^"]+)"/.exec(await readFile(join(temp.path, "report.html"), "utf8"))?.[1];
    const routed = confidenceBins(0.6)[1]?.colour;
    const belowDefault = confidenceBins(DEFAULT_CONFIDENCE_THRESHOLD)[2]?.colour;

    it("colours a request routed at 0.7 as routed when the plug-in's threshold was 0.6", async () => {
      await writeFile(join(temp.path, "run.json"), JSON.stringify({ suite: "x", modes: ["router"], seed: 1, confidenceThreshold: 0.6 }));
      await rebuildReport(temp.path);
      expect(await dot()).toBe(routed);
      expect(await readFile(join(temp.path, "report.html"), "utf8")).toContain("confidence 0.6 – 0.95");
    });

    it("falls back to the default threshold for a run.json without it (0.7 is below 0.8)", async () => {
      await writeFile(join(temp.path, "run.json"), JSON.stringify({ suite: "x", modes: ["router"], seed: 1 }));
      await rebuildReport(temp.path);
      expect(await dot()).toBe(belowDefault);
      expect(routed).not.toBe(belowDefault);
    });
  });

  describe("when shards are merged", () => {
    let temp: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir("rcm-threshold-merge");
    });
    afterEach(async () => temp.remove());

    async function shard(name: string, session: string, threshold?: number): Promise<string> {
      const dir = join(temp.path, name);
      await mkdir(dir, { recursive: true });
      const run = {
        suite: "x",
        modes: ["router"],
        agent: { kind: "scripted" },
        seed: 1,
        budgetMs: 1,
        sessions: 2,
        ...(threshold === undefined ? {} : { confidenceThreshold: threshold }),
      };
      await writeFile(join(dir, "run.json"), JSON.stringify(run));
      await writeFile(join(dir, "results.jsonl"), `${JSON.stringify({ ...line, session_id: session })}\n`);
      return dir;
    }

    it("takes a run.json without the threshold as the default, and refuses shards whose plug-in thresholds differ", async () => {
      const parts = [await shard("a", "s1"), await shard("b", "s2", DEFAULT_CONFIDENCE_THRESHOLD)];
      expect((await mergeRuns({ runs: parts, out: join(temp.path, "merged") })).results).toBe(2);
      const other = await shard("c", "s3", 0.6);
      await expect(mergeRuns({ runs: [parts[0] as string, other], out: join(temp.path, "merged-2") })).rejects.toThrow(
        /differs from .* in confidenceThreshold: 0.6 vs 0.8/,
      );
    });
  });
});
