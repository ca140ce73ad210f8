import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultLineSchema } from "../../src/bench/results/result-line.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-mini");
});
afterAll(async () => {
  await temp?.remove();
});

describe("the README's main command, reduced for CI", () => {
  it("runs a few mini-suite sessions in two modes through the real OpenCode and prints the report", async () => {
    const out = join(temp.path, "mini");
    const { stdout } = await run(
      process.execPath,
      [join(packageRoot(), "dist", "cli.js"), "bench", "mini", "--sessions", "2", "--modes", "native,full", "--out", out],
      { maxBuffer: 20 * 1024 * 1024, timeout: 480_000 },
    );
    expect(stdout).toContain("# Switch-SWE run: switch-mini");
    expect(stdout).toMatch(/\| native \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \|/);
    expect(stdout).toMatch(/\| full \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \|/);
    const lines = (await readFile(join(out, "results.jsonl"), "utf8")).trim().split("\n").map((line) => ResultLineSchema.parse(JSON.parse(line)));
    expect(lines).toHaveLength(4);
    const native = lines.find((line) => line.mode === "native" && line.condition === "switched");
    const full = lines.find((line) => line.mode === "full" && line.condition === "switched");
    expect(full?.resumed_focus.inputTokens).toBeLessThan(native?.resumed_focus.inputTokens ?? 0);
  }, 600_000);
});
