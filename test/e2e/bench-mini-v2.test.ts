import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

// bench-mini.test.ts's run through OpenCode 2.0.15 (the pinned @opencode/cli-linux-x64-baseline):
// the same sessions, modes and regimes, the plug-in loaded as a V2 `plugins` folder entry.

const run = promisify(execFile);
let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-mini-v2");
});
afterAll(async () => {
  await temp?.remove();
});

describe("bench mini --host opencode-2", () => {
  it("runs the mini sessions through the real OpenCode 2, names the host, and shows native's gap in the tight window and full recovering it", async () => {
    const out = join(temp.path, "mini");
    const { stdout } = await run(
      process.execPath,
      [join(packageRoot(), "dist", "cli.js"), "bench", "mini", "--host", "opencode-2", "--sessions", "2", "--modes", "native,full", "--out", out],
      { maxBuffer: 20 * 1024 * 1024, timeout: 300_000 },
    );
    expect(stdout).toContain("# Switch-SWE offline benchmark: switch-mini");
    expect(stdout).toMatch(/^Host: OpenCode 2 \(2\.0\.15\), `--host opencode-2`\.$/m);
    const [roomy, tight] = stdout.split("## Regime tight");
    expect(roomy).toMatch(/\| native \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| - \| 0 \| 0 \| 0 \|/);
    expect(roomy).toMatch(/\| full \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| - \| 0 \| 0 \| 0 \|/);
    // OpenCode 2 compacts while the focus is suspended; the faithful agent loses the focus's first
    // requirement in native, and the plug-in keeps it in view.
    expect(tight).toContain("on OpenCode 2 28k context");
    expect(tight).toMatch(/\| native \| 100\.0% \(1\/1\) \| 0\.0% \(0\/1\) \| 100\.0 \| - \| 1 \| 0 \| 0 \|/);
    expect(tight).toMatch(/\| full \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \| 100% \| 0 \| 0 \| 0 \|/);

    const read = async (regime: string) =>
      (await readFile(join(out, regime, "results.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    const lines = await read("roomy");
    // Two sessions and the resumed twin of the switched one (mini's default conditions), in each mode.
    expect(lines).toHaveLength(6);
    expect(lines.filter((line) => line.condition === "resumed").map((line) => line.resumption?.opencode_session_ids.length)).toEqual([3, 3]);
    for (const line of lines) expect(line.setting).toMatchObject({ host: "opencode-2", host_version: "2.0.15" });
    // The plug-in ran inside OpenCode 2: it routed every request of full, and narrowed the resumed focus.
    const native = lines.find((line) => line.mode === "native" && line.condition === "switched");
    const full = lines.find((line) => line.mode === "full" && line.condition === "switched");
    expect(full?.timeline?.every((entry) => entry.routed_to !== undefined)).toBe(true);
    expect(full?.resumed_focus.inputTokens).toBeLessThan(native?.resumed_focus.inputTokens ?? 0);
    const lost = (await read("tight")).find((line) => line.mode === "native" && line.condition === "switched");
    expect(lost?.focus_write).toEqual({ wrote: "stage-2 without stage-1", lost: ["stage-1"], leaked: [] });
    expect(lost?.timeline?.some((entry) => (entry.compactions?.length ?? 0) > 0)).toBe(true);
    expect(await readFile(join(out, "tight", "report.md"), "utf8")).toMatch(/^Host: OpenCode 2 \(2\.0\.15\), `--host opencode-2`\.$/m);
    expect(JSON.parse(await readFile(join(out, "roomy", "run.json"), "utf8")).setting).toMatchObject({ host: "opencode-2" });
  }, 360_000);
});
