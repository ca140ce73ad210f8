import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODE_COLOURS } from "../../src/lab/bench/report-html/palette.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { launchChromium } from "../support/chromium.js";
import { countColours, countDrawn } from "../support/page-probes.js";
import { runCliOk } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-mini");
});
afterAll(async () => {
  await temp?.remove();
});

describe("the README's main command, reduced for CI", () => {
  it("runs a few mini-suite sessions in two modes and both regimes through the real OpenCode and prints the gap, and the resumed return", async () => {
    const out = join(temp.path, "mini");
    // The CLI's main in this process, with this process's environment (OPENCODE_BIN, git, python).
    const { stdout } = await runCliOk(["bench", "mini", "--sessions", "2", "--modes", "native,full", "--out", out], process.env);
    expect(stdout).toContain("# Switch-SWE offline benchmark: switch-mini");
    expect(stdout).toContain("Scripted agent: mechanism, not model quality.");
    const [roomy, tight] = stdout.split("## Regime tight");
    // Each row ends with the resumed columns (mini runs the condition by default): native's return,
    // in a new OpenCode session, sees only the last stage's request and loses stage 1.
    expect(roomy).toMatch(/\| native \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| - \| 0 \| 0 \| 0 \| 0\.0% \(0\/1\) \| 0\/1 \(0\.0%\) \| 1 \|/);
    expect(roomy).toMatch(/\| full \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| - \| 0 \| 0 \| 0 \|/);
    // The tight window: OpenCode compacts while the focus is suspended, the faithful agent loses
    // the focus's first requirement in native, and the plug-in keeps it in view.
    expect(tight).toMatch(/\| native \| 100\.0% \(1\/1\) \| 0\.0% \(0\/1\) \| 100\.0 \| - \| 1 \| 0 \| 0 \|/);
    expect(tight).toMatch(/\| full \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| 100% \| 0 \| 0 \| 0 \|/);
    const read = async (regime: string) =>
      (await readFile(join(out, regime, "results.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    const lines = await read("roomy");
    expect(lines).toHaveLength(6);
    expect(roomy).toContain("Resumed the next day (the focus's last stage in a new OpenCode session): native 0.0% (requirements carried 0/1 (0.0%))");
    // The resumed runs, three OpenCode sessions each: native's return carried nothing; full's return
    // names the focus's checkout, the plug-in resumes the earlier session's task and its record carries stage 1.
    for (const mode of ["native", "full"] as const) {
      const resumed = lines.find((line) => line.mode === mode && line.condition === "resumed");
      expect(resumed?.session_id).toBe("minicfg__minicfg-1__resumed");
      expect(resumed?.finalized).toBe(true);
      expect(resumed?.error).toBeUndefined();
      expect(new Set(resumed?.resumption?.opencode_session_ids).size).toBe(3);
      expect(resumed?.resumption?.opencode_session_ids.at(-1)).toBe(resumed?.opencode_session_id);
      expect(resumed?.resumption?.requirements).toEqual(["stage-1"]);
      expect([...(resumed?.resumption?.carried ?? []), ...(resumed?.resumption?.missed ?? [])]).toEqual(["stage-1"]);
      expect(resumed?.resumption?.seen_by).toBe("rule phrase");
    }
    const nativeBack = lines.find((line) => line.mode === "native" && line.condition === "resumed");
    expect(nativeBack?.resumption).toMatchObject({ carried: [], missed: ["stage-1"] });
    expect(nativeBack?.focus_write).toEqual({ wrote: "stage-2 without stage-1", lost: ["stage-1"], leaked: [] });
    expect(nativeBack?.resolved).toBe(false);
    const fullBack = lines.find((line) => line.mode === "full" && line.condition === "resumed");
    expect(fullBack?.resumption).toMatchObject({ carried: ["stage-1"], missed: [] });
    expect(fullBack?.resolved).toBe(true);
    expect(roomy).toMatch(/\| full \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| - \| 0 \| 0 \| 0 \| 100\.0% \(1\/1\) \| 1\/1 \(100\.0%\) \| 0 \|/);
    // The third session starts with nothing of the other two: native's return costs a fraction of the switched one's.
    const backCall = (line: (typeof lines)[number] | undefined) =>
      line?.timeline?.findLast((entry) => entry.task === "minicfg__minicfg-1" && entry.stage === "stage-2")?.call_input_tokens[0] ?? Number.NaN;
    const nativeSwitched = lines.find((line) => line.mode === "native" && line.condition === "switched");
    expect(backCall(nativeBack)).toBeLessThan(backCall(nativeSwitched) / 2);
    expect(await readFile(join(out, "roomy", "report.md"), "utf8")).toContain(
      "| minicfg__minicfg-1__resumed | native | no | stage-1 | none | stage-1 | rule phrase |",
    );
    const native = lines.find((line) => line.mode === "native" && line.condition === "switched");
    const full = lines.find((line) => line.mode === "full" && line.condition === "switched");
    expect(full?.resumed_focus.inputTokens).toBeLessThan(native?.resumed_focus.inputTokens ?? 0);
    const lost = (await read("tight")).find((line) => line.mode === "native" && line.condition === "switched");
    expect(lost?.focus_write).toEqual({ wrote: "stage-2 without stage-1", lost: ["stage-1"], leaked: [] });
    expect(await readFile(join(out, "tight", "report.md"), "utf8")).toContain("Regime: tight, tight window");
    expect(await readFile(join(out, "report.html"), "utf8")).toContain('href="tight/report.html"');
  }, 600_000);
});

describe("report.html", () => {
  it("draws its charts in headless Chromium without fetching anything", async () => {
    const out = join(temp.path, "mini", "roomy");
    const results = (await readFile(join(out, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    // What the model received, in every line: the timeline, fidelity at the switched focus's resumptions, cache tokens.
    for (const line of results) {
      expect(line.timeline?.length).toBeGreaterThan(0);
      expect(line.cache?.source).toBe("simulated");
      expect(line.fidelity?.some((point) => point.at === "finalize")).toBe(true);
    }
    const switchedFull = results.find((line) => line.mode === "full" && line.condition === "switched");
    const switchedNative = results.find((line) => line.mode === "native" && line.condition === "switched");
    const resumed = (line: typeof switchedFull) => line?.fidelity?.find((point) => point.at === "resume");
    expect(resumed(switchedFull)?.other_task_tokens).toBe(0);
    expect(resumed(switchedNative)?.other_task_tokens).toBeGreaterThan(0);

    const { stdout } = await runCliOk(["report", out, "--cache-read-price", "0.25"], process.env);
    expect(stdout).toContain("report.html");
    const markdown = await readFile(join(out, "report.md"), "utf8");
    expect(markdown).toContain("## Context fidelity (what the model received)");
    expect(markdown).toContain("cached reads at 0.25x");

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      await page.goto(pathToFileURL(join(out, "report.html")).href);
      expect(requested).toEqual([pathToFileURL(join(out, "report.html")).href]);

      // Every mark has drawn geometry: 6 bars (2 modes x 3 conditions), a dot per request of the opened session, a line per mode.
      const drawn = await countDrawn(page, {
        bars: "svg.resolution rect.mark",
        dots: "details[open] svg.timeline circle.mark",
        lines: "svg.tokens polyline.mark",
      });
      const openedID = (await page.locator("details[open] > summary").textContent())?.split(":")[0];
      const opened = results.filter((line) => line.session_id === openedID);
      expect(opened.length).toBeGreaterThan(0);
      expect(drawn.bars).toBe(6);
      expect(drawn.dots).toBe(opened.reduce((sum, line) => sum + (line.timeline?.length ?? 0), 0));
      expect(drawn.lines).toBeGreaterThanOrEqual(4);

      // And they reached the pixels: the switched bars' mode colours fill part of the chart's screenshot.
      const pixels = await countColours(page, await page.locator("svg.resolution").screenshot(), {
        native: MODE_COLOURS.native ?? "",
        full: MODE_COLOURS.full ?? "",
      });
      expect(pixels.native).toBeGreaterThan((pixels.total ?? 0) * 0.03);
      expect(pixels.full).toBeGreaterThan((pixels.total ?? 0) * 0.03);
      await page.screenshot({ path: join(out, "report.png"), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
