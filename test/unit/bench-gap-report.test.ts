import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FaithfulDecision } from "../../src/lab/bench/agent/faithful-agent.js";
import { describeAgent, describeRunAgent, SCRIPTED_LABEL } from "../../src/lab/bench/drive/describe-agent.js";
import { focusWrite } from "../../src/lab/bench/metrics/focus-write.js";
import { rebuildReport } from "../../src/lab/bench/report/rebuild-report.js";
import { writeRegimesReport } from "../../src/lab/bench/report/regimes-report.js";
import { renderHtmlReport } from "../../src/lab/bench/report-html/render-html.js";
import { headline } from "../../src/lab/bench/results/headline.js";
import { renderReport } from "../../src/lab/bench/results/render-report.js";
import { gapTable } from "../../src/lab/bench/results/report-tables.js";
import { contextFailure, recoveredShare } from "../../src/lab/bench/results/summaries.js";
import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

// The offline benchmark's report: native's switched gap, what each mode recovers of it, and
// why switched sessions failed, under the label that says what a scripted agent measures.

const usage = { inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, modelCalls: 2, toolCalls: 1 };
const aux = { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0 };

function line(mode: ResultLine["mode"], condition: ResultLine["condition"], session: string, outcome: "resolved" | "lost" | "leaked" | "other"): ResultLine {
  const resolved = outcome === "resolved";
  return {
    session_id: `${session}__${condition}`,
    mode,
    focus: session,
    condition,
    locality: "near",
    resolved,
    failure_class: resolved ? "resolved" : "implementation",
    finalized: true,
    budget_exhausted: false,
    continuations: 0,
    usage,
    resumed_focus: usage,
    aux,
    resumed_focus_aux: aux,
    wall_ms: 1000,
    opencode_session_id: "ses",
    focus_workspace: "ws1",
    patch_bytes: 10,
    ...(outcome === "other"
      ? {}
      : { focus_write: { wrote: "stage-2", lost: outcome === "lost" ? ["stage-1"] : [], leaked: outcome === "leaked" ? ["b/stage-3"] : [] } }),
  };
}

// native: 2/2 uninterrupted, 0/2 switched (one lost, one leaked); memory recovers one; full both; router none (an "other" failure).
const results: ResultLine[] = [
  ...(["native", "router", "memory", "full"] as const).flatMap((mode) => [
    line(mode, "uninterrupted", "a", "resolved"),
    line(mode, "uninterrupted", "b", "resolved"),
  ]),
  line("native", "switched", "a", "lost"),
  line("native", "switched", "b", "leaked"),
  line("router", "switched", "a", "other"),
  line("router", "switched", "b", "leaked"),
  line("memory", "switched", "a", "resolved"),
  line("memory", "switched", "b", "leaked"),
  line("full", "switched", "a", "resolved"),
  line("full", "switched", "b", "resolved"),
];

describe("the gap report", () => {
  it("counts what each mode recovers of native's switched gap, and why switched sessions failed", () => {
    expect(recoveredShare(results, "full")).toBe(1);
    expect(recoveredShare(results, "memory")).toBe(0.5);
    expect(recoveredShare(results, "router")).toBe(0);
    expect(
      recoveredShare(
        results.filter((result) => result.mode !== "native" || result.condition === "uninterrupted" || result.resolved),
        "full",
      ),
    ).toBeUndefined();
    expect(gapTable(results).rows).toEqual([
      ["native", "100.0% (2/2)", "0.0% (0/2)", "100.0", "-", "1", "1", "0"],
      ["router", "100.0% (2/2)", "0.0% (0/2)", "100.0", "0%", "0", "1", "1"],
      ["memory", "100.0% (2/2)", "50.0% (1/2)", "50.0", "50%", "0", "1", "0"],
      ["full", "100.0% (2/2)", "100.0% (2/2)", "0.0", "100%", "0", "0", "0"],
    ]);
  });

  it("says what the results mean in one sentence at the top of report.md and report.html", () => {
    const said =
      "What it means: interrupting the focus task with other tasks costs native 100.0 points (100.0% uninterrupted, 0.0% switched) (of its 2 switched failures, 1 by a lost requirement and 1 by a leaked requirement). Recovered of that gap: router 0%, memory 50%, full 100%.";
    expect(headline(results)).toBe(said);
    expect(renderReport(results, { title: "t" }).split("\n")[2]).toBe(said);
    expect(renderHtmlReport(results, { title: "t" })).toContain(`<p class="headline"><strong>${said}</strong></p>`);
    const noGap = results
      .filter((result) => result.mode !== "native" || result.condition === "uninterrupted")
      .concat([line("native", "switched", "a", "resolved"), line("native", "switched", "b", "resolved")]);
    expect(headline(noGap)).toMatch(/^What it means: native resolves 100\.0% uninterrupted and 100\.0% switched, so interruptions cost it nothing here/);
  });

  it("names a failure's context class only when the session failed and the agent traced its write", () => {
    expect(contextFailure(line("native", "switched", "a", "lost"))).toBe("lost");
    expect(contextFailure(line("native", "switched", "a", "leaked"))).toBe("leaked");
    expect(contextFailure(line("native", "switched", "a", "other"))).toBeUndefined();
    expect(contextFailure({ ...line("native", "switched", "a", "lost"), resolved: true })).toBeUndefined();
  });

  it("takes the faithful agent's last write in the focus workspace as what the focus files hold", () => {
    const decision = (workspace: string, wrote: string, lost: string[]): FaithfulDecision => ({
      index: 0,
      workspace,
      task: "t",
      stage: "s",
      seen: [],
      lost,
      leaked: [],
      confusableSeen: [],
      wrote,
      files: [],
    });
    const decisions = [
      decision("/r/ws1", "stage-1", []),
      decision("/r/ws2", "stage-1", []),
      decision("/r/ws1/", "stage-2 without stage-1", ["stage-1"]),
      decision("/r/ws2", "stage-2", []),
    ];
    expect(focusWrite(decisions, "/r/ws1")).toEqual({ wrote: "stage-2 without stage-1", lost: ["stage-1"], leaked: [] });
    expect(focusWrite(decisions, "/r/ws3")).toBeUndefined();
  });

  it("says under the title who did the work and in which window, with the scripted label", () => {
    const setting = describeAgent({ kind: "faithful", regime: "tight" });
    expect(setting).toContain("faithful scripted agent");
    expect(setting).toContain("Regime: tight, tight window (16k context");
    expect(setting).toContain(SCRIPTED_LABEL);
    expect(describeRunAgent({ kind: "scripted" })).toContain("Regime: roomy");
    expect(describeRunAgent({ kind: "model", model: "ds/chat" })).toBe("Agent: ds/chat through OpenCode.");
    expect(describeRunAgent(undefined)).toBeUndefined();
    const markdown = renderReport(results, { title: "Run", setting });
    expect(markdown.split("\n").slice(0, 3)).toEqual(["# Run", "", setting]);
    expect(markdown).toContain("| memory | 100.0% (2/2) | 50.0% (1/2) | 50.0 | 50.0 | - | 50% |");
    expect(markdown).toContain("of which lost requirement | of which leaked requirement");
    expect(markdown).toContain("| a__switched | native | no | implementation: lost requirement (stage-1) |");
    expect(renderHtmlReport(results, { title: "Run", setting })).toContain(`<p class="setting">`);
  });

  describe("bench mini's report over regimes", () => {
    let temp: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir("rcm-gap-report");
    });
    afterEach(async () => temp.remove());

    it("has a section per regime with its table and a link to the regime's run, the same bytes for the same runs", async () => {
      const runs = [
        { regime: "roomy", description: "roomy window", dir: "roomy", results },
        { regime: "tight", description: "tight window", dir: "tight", results: results.slice(0, 8) },
      ];
      const written = await writeRegimesReport(temp.path, runs, { title: "Offline", setting: `Agent: x. ${SCRIPTED_LABEL}` });
      const markdown = await readFile(written.markdown, "utf8");
      expect(markdown).toContain("## Regime roomy: roomy window");
      expect(markdown).toContain("## Regime tight: tight window");
      expect(markdown).toContain("roomy/report.md");
      expect(markdown).toContain(SCRIPTED_LABEL);
      const html = await readFile(join(temp.path, "report.html"), "utf8");
      expect(html).toContain('href="roomy/report.html"');
      expect(html.match(/<svg class="chart resolution"/g)).toHaveLength(2);
      await writeRegimesReport(temp.path, runs, { title: "Offline", setting: `Agent: x. ${SCRIPTED_LABEL}` });
      expect(await readFile(written.markdown, "utf8")).toBe(markdown);
    });

    it("is not a run: `report` on it names the regime folders to report", async () => {
      await mkdir(join(temp.path, "tight"));
      await writeFile(join(temp.path, "tight", "results.jsonl"), `${JSON.stringify(results[0])}\n`);
      await expect(rebuildReport(temp.path)).rejects.toThrow(`no results to report (a bench mini folder: report ${join(temp.path, "tight")})`);
      await rebuildReport(join(temp.path, "tight"));
      expect(await readFile(join(temp.path, "tight", "report.md"), "utf8")).toContain("# Switch-SWE run: tight");
    });
  });
});
