import { mkdir, rm } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { applyPatch } from "../score/apply-patch.js";
import { type PytestStatus, parsePytestSummary } from "../score/parse-pytest.js";
import { runCommand } from "../score/run-command.js";
import { runGit } from "../score/run-git.js";
import { resetAndApplyTestPatch, writePythonShims } from "../score/test-patch.js";
import type { Task } from "../suite/schema.js";

/** One run of a task's test command: every test's status in pytest's summary, and how the command ended. */
export interface TestRun {
  statuses: Map<string, PytestStatus>;
  /** Null when the command was killed. */
  exitCode: number | null;
  timedOut: boolean;
  /** The last line the command printed, for a command that printed no test result. */
  lastLine: string;
}

/** The test command's runs on the base commit with the test patch alone, then with the reference patch too; a patch that does not apply stops there. */
export interface TaskTestRuns {
  testPatchOnly?: TestRun;
  withReference?: TestRun;
  /** A patch that does not apply: its field (`test_patch` or `patch`) and what git said. */
  notApplied?: { field: "test_patch" | "patch"; reason: string };
}

/**
 * Runs a task's test command twice in one scratch clone, as the scorer (`scoreTask`) scores:
 * at the base commit with the test patch alone (what every session starts from), then, reset,
 * with the reference patch applied as SWE-bench applies a patch and the test patch after it.
 * `python` and `python3` stand for `python`. The scorer keeps only the output's tail; this keeps
 * every test's status, so that a test the command never runs can be told from one that fails.
 */
export async function runTaskTests(options: { task: Task; repoSource: string; workDir: string; python: string; timeoutMs: number }): Promise<TaskTestRuns> {
  const { task, repoSource, workDir, python, timeoutMs } = options;
  const checkout = join(workDir, "checkout");
  await mkdir(workDir, { recursive: true });
  try {
    await runGit({ cwd: workDir, args: ["clone", "-q", "--no-checkout", repoSource, checkout] });
    await runGit({ cwd: checkout, args: ["-c", "advice.detachedHead=false", "checkout", "-q", "--detach", task.base_commit] });
    const binDir = join(workDir, "bin");
    await writePythonShims(binDir, python);
    const run = () => runTests({ task, checkout, binDir, timeoutMs });

    const testPatch = await applyTestPatch({ task, checkout, workDir });
    if (testPatch !== undefined) return { notApplied: { field: "test_patch", reason: testPatch } };
    const testPatchOnly = await run();

    await runGit({ cwd: checkout, args: ["reset", "--hard", "-q"] });
    await runGit({ cwd: checkout, args: ["clean", "-fdxq"] });
    const reference = await applyPatch(checkout, task.patch, workDir);
    if (!reference.applied) return { testPatchOnly, notApplied: { field: "patch", reason: firstError(reference.log) } };
    const again = await applyTestPatch({ task, checkout, workDir });
    if (again !== undefined) return { testPatchOnly, notApplied: { field: "test_patch", reason: `after the reference patch: ${again}` } };
    return { testPatchOnly, withReference: await run() };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function runTests(options: { task: Task; checkout: string; binDir: string; timeoutMs: number }): Promise<TestRun> {
  const { task, checkout, binDir, timeoutMs } = options;
  const result = await runCommand({
    command: "sh",
    args: ["-c", `exec 2>&1\n${task.test_cmd}`],
    cwd: checkout,
    env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`, PYTHONDONTWRITEBYTECODE: "1" },
    timeoutMs,
  });
  const output = result.stdout + result.stderr;
  return { statuses: parsePytestSummary(output), exitCode: result.code, timedOut: result.timedOut, lastLine: output.trim().split("\n").at(-1) ?? "" };
}

// As the scorer does (score/test-patch.ts); returns why the test patch did not apply.
async function applyTestPatch(options: { task: Task; checkout: string; workDir: string }): Promise<string | undefined> {
  const result = await resetAndApplyTestPatch(options);
  return result.code === 0
    ? undefined
    : result.stderr
        .trim()
        .split("\n")
        .find((line) => line.startsWith("error")) ||
        result.stderr.trim().split("\n")[0] ||
        `git apply exited ${result.code ?? "none"}`;
}

function firstError(log: string): string {
  const line = log.split("\n").find((candidate) => /^(error|patch): /i.test(candidate) || candidate.includes("FAILED"));
  return `none of git apply, git apply --reject and patch --fuzz applies it${line === undefined ? "" : ` (${line.trim()})`}`;
}
