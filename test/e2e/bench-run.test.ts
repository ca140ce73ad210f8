import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const CLI = join(packageRoot(), "dist", "cli.js");
const SUITE = join(packageRoot(), "fixtures", "bench-small");

async function treeHash(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (current: string): Promise<void> => {
    for (const entry of (await readdir(current, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else hash.update(`${relative(dir, path)}\u0000${(await stat(path)).size}\u0000`).update(await readFile(path));
    }
  };
  await walk(dir);
  return hash.digest("hex");
}

let outsideTmp: string;

/** Runs the CLI with its own TMPDIR, so the test can check nothing was written outside the run. */
function bench(args: readonly string[]) {
  return run(process.execPath, [CLI, "bench", ...args], {
    maxBuffer: 20 * 1024 * 1024,
    timeout: 300_000,
    env: { ...process.env, TMPDIR: outsideTmp },
  });
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-e2e");
  outsideTmp = join(temp.path, "outside-tmp");
  await mkdir(outsideTmp);
});
afterAll(async () => {
  await temp?.remove();
});

describe("opencode-rcm bench run on the small suite, through the real OpenCode and real pytest", () => {
  it("runs, scores and reports two sessions in two modes, resumes, re-scores and rebuilds the report", async () => {
    const out = join(temp.path, "run");
    const suiteBefore = await treeHash(SUITE);
    const args = [
      "run",
      "--suite",
      SUITE,
      "--agent",
      "scripted",
      "--modes",
      "native,router",
      "--sessions",
      "2",
      "--concurrency",
      "2",
      "--out",
      out,
      "--budget-s",
      "120",
    ];
    const first = await bench(args);
    expect(first.stdout).toContain("4 session runs now, 0 already done; done.");
    expect(first.stderr).toMatch(/\[bench \d\d:\d\d\] 4\/4 sessions · router · \S+ · done: resolved/);

    const lines = (await readFile(join(out, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((line) => line.condition))).toEqual(new Set(["uninterrupted", "switched"]));
    for (const line of lines) {
      expect(line).toMatchObject({ resolved: true, failure_class: "resolved", finalized: true, budget_exhausted: false });
      expect(line.usage.modelCalls).toBeGreaterThan(0);
      expect(line.usage.toolCalls).toBeGreaterThan(0);
      expect(line.focus_workspace).toMatch(/^ws[1-5]$/);
      const report = JSON.parse(await readFile(join(out, "sessions", line.session_id, line.mode, "report.json"), "utf8"));
      expect(report[line.focus]).toMatchObject({ patch_successfully_applied: true, resolved: true });
      expect(report[line.focus].tests_status.FAIL_TO_PASS.failure).toEqual([]);
    }
    const switched = lines.find((line) => line.condition === "switched" && line.mode === "native");
    const uninterrupted = lines.find((line) => line.condition === "uninterrupted" && line.mode === "native");
    expect(switched?.usage.modelCalls).toBeGreaterThan(uninterrupted?.usage.modelCalls ?? Infinity);
    const routed = lines.find((line) => line.condition === "switched" && line.mode === "router");
    expect(routed?.resumed_focus.inputTokens).toBeLessThan(switched?.resumed_focus.inputTokens ?? 0);

    const report = await readFile(join(out, "report.md"), "utf8");
    expect(report).toContain("## Resolution");
    expect(report).toMatch(/\| native \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \|/);
    expect(report).toMatch(/\| router \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \| 0\.0 \|/);

    const again = await bench(args);
    expect(again.stdout).toContain("0 session runs now, 4 already done; done.");
    // The directory is one experiment: a rerun with another window would relabel its results, and is refused.
    const relabel = await bench([...args, "--regime", "tight"]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(relabel?.code).toBe(2);
    expect(relabel?.stderr).toContain("regime: roomy (run.json) vs tight (this command)");
    expect(lines.map((line) => [line.setting?.agent, line.setting?.regime])).toEqual(Array(4).fill(["scripted", "roomy"]));
    const rescored = await bench(["score", out]);
    expect(rescored.stdout).toContain("re-scored 4 session runs (0 changed)");
    const rebuilt = await bench(["report", out]);
    expect(rebuilt.stdout.trim().split("\n")).toEqual([join(out, "report.md"), join(out, "report.html")]);
    expect(await treeHash(SUITE)).toBe(suiteBefore);
    expect(await readdir(outsideTmp)).toEqual([]);
  }, 600_000);

  it("stops cleanly on Ctrl-C, leaving only complete result lines, and a rerun finishes the work", async () => {
    const out = join(temp.path, "interrupted");
    const args = [CLI, "bench", "run", "--suite", SUITE, "--agent", "scripted", "--modes", "native", "--sessions", "2", "--out", out];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/request 3\//.test(stderr) && !child.killed) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(130);
    const text = await readFile(join(out, "results.jsonl"), "utf8").catch(() => "");
    for (const line of text.split("\n").filter(Boolean)) ResultLineSchema.parse(JSON.parse(line));
    const done = text.split("\n").filter(Boolean).length;
    expect(done).toBeLessThan(2);
    const rerun = await bench(["run", "--suite", SUITE, "--agent", "scripted", "--modes", "native", "--sessions", "2", "--out", out]);
    expect(rerun.stdout).toContain(`${2 - done} session runs now, ${done} already done; done.`);
  }, 600_000);
});
