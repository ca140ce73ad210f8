import { access, mkdir, rm } from "node:fs/promises";
import { delimiter, join, resolve } from "node:path";
import type { Task } from "../suite/schema.js";
import { type ApplyMethod, applyPatch } from "./apply-patch.js";
import { findPython } from "./find-python.js";
import { isPytestPass } from "./is-pytest-pass.js";
import { parsePytestSummary } from "./parse-pytest.js";
import { runCommand } from "./run-command.js";
import { runGit } from "./run-git.js";
import { ScoreHarnessError } from "./score-harness-error.js";
import { resetAndApplyTestPatch, writePythonShims } from "./test-patch.js";

interface TestOutcomes {
  success: string[];
  failure: string[];
}

/** SWE-bench's per-instance report, plus how the patch applied and how the tests ran. */
export interface TaskReport {
  instance_id: string;
  /** No patch was submitted at all. */
  patch_is_None: boolean;
  /** A non-blank patch was submitted. */
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  /** The patch applied, the tests finished in time, and every FAIL_TO_PASS and PASS_TO_PASS test passed. */
  resolved: boolean;
  /** A test missing from the output counts as a failure. */
  tests_status: { FAIL_TO_PASS: TestOutcomes; PASS_TO_PASS: TestOutcomes };
  apply_method: ApplyMethod | null;
  /** The end of what the apply attempts printed. */
  apply_log_tail: string;
  /** Null when the test command was killed. */
  test_exit_code: number | null;
  test_timed_out: boolean;
  /** The last 4000 characters of the test command's output (stdout and stderr together). */
  test_output_tail: string;
}

const DEFAULT_TIMEOUT_MS = 900_000;
const TAIL_CHARS = 4000;

/**
 * Scores one patch for one task in a clean checkout, as SWE-bench does: clone `repoSource`
 * into `workDir`, check out the base commit, apply `patch`, reset the test patch's files and
 * apply the test patch, run `task.test_cmd`, and compare pytest's summary with FAIL_TO_PASS
 * and PASS_TO_PASS. The tests run even when the patch did not apply (the report then shows
 * the base revision's results), but such a patch is never resolved. A test patch that does
 * not apply is a harness error and throws.
 */
export async function scoreTask(options: {
  task: Task;
  /** A path or URL git can clone: a bundle file or a repository directory. */
  repoSource: string;
  /** The submitted patch; null when nothing was submitted. */
  patch: string | null;
  /** A scratch directory, created, and removed at the end unless `keep`. */
  workDir: string;
  timeoutMs?: number;
  /** The interpreter `python` and `python3` stand for; `findPython()` when absent. */
  python?: string;
  keep?: boolean;
  /** Scratch files (the patch file) and the TMPDIR of git, patch and the tests; the system's temp dir when absent. */
  tempDir?: string | undefined;
}): Promise<TaskReport> {
  const { task, patch, workDir, timeoutMs = DEFAULT_TIMEOUT_MS, keep = false, tempDir } = options;
  const tmp = tempDir === undefined ? {} : { TMPDIR: tempDir };
  const python = options.python ?? (await findPython());
  const repoSource = await localPathOrUrl(options.repoSource);
  const checkout = join(workDir, "checkout");
  await mkdir(workDir, { recursive: true });
  try {
    await runGit({ cwd: workDir, args: ["clone", "-q", "--no-checkout", repoSource, checkout], env: tmp });
    await runGit({ cwd: checkout, args: ["-c", "advice.detachedHead=false", "checkout", "-q", "--detach", task.base_commit], env: tmp });

    const patchExists = patch !== null && patch.trim() !== "";
    const applied = patchExists ? await applyPatch(checkout, patch, tempDir) : { applied: false, method: null, log: "no patch submitted\n" };
    await applyTestPatch({ checkout, workDir, task, tmp });

    const binDir = join(workDir, "bin");
    await writePythonShims(binDir, python);
    const run = await runCommand({
      command: "sh",
      args: ["-c", `exec 2>&1\n${task.test_cmd}`],
      cwd: checkout,
      env: { ...process.env, ...tmp, PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`, PYTHONDONTWRITEBYTECODE: "1" },
      timeoutMs,
    });
    const output = run.stdout + run.stderr;
    const statuses = parsePytestSummary(output);
    const outcomes = (tests: readonly string[]): TestOutcomes => ({
      success: tests.filter((test) => isPytestPass(statuses.get(test))),
      failure: tests.filter((test) => !isPytestPass(statuses.get(test))),
    });
    const tests_status = { FAIL_TO_PASS: outcomes(task.FAIL_TO_PASS), PASS_TO_PASS: outcomes(task.PASS_TO_PASS) };
    const allPass = tests_status.FAIL_TO_PASS.failure.length === 0 && tests_status.PASS_TO_PASS.failure.length === 0;
    return {
      instance_id: task.instance_id,
      patch_is_None: patch === null,
      patch_exists: patchExists,
      patch_successfully_applied: applied.applied,
      resolved: applied.applied && !run.timedOut && allPass,
      tests_status,
      apply_method: applied.method,
      apply_log_tail: applied.log.slice(-TAIL_CHARS),
      test_exit_code: run.code,
      test_timed_out: run.timedOut,
      test_output_tail: output.slice(-TAIL_CHARS),
    };
  } finally {
    if (!keep) await rm(workDir, { recursive: true, force: true });
  }
}

async function applyTestPatch(options: { checkout: string; workDir: string; task: Task; tmp: Record<string, string> }): Promise<void> {
  const { task } = options;
  const result = await resetAndApplyTestPatch({ ...options, env: options.tmp });
  if (result.code !== 0) {
    throw new ScoreHarnessError({
      reason: "test-patch-did-not-apply",
      message: `${task.instance_id}: the test patch does not apply at ${task.base_commit}: ${result.stderr.trim()}`,
      detail: result.stdout + result.stderr,
    });
  }
}

// A relative local path is made absolute (git runs elsewhere); anything else is passed as is.
async function localPathOrUrl(source: string): Promise<string> {
  try {
    await access(source);
    return resolve(source);
  } catch {
    return source;
  }
}
