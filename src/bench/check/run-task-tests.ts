import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { patchFiles } from "../patch/patch-files.js";
import { applyPatch } from "../score/apply-patch.js";
import { type PytestStatus, parsePytestSummary } from "../score/parse-pytest.js";
import { runCommand } from "../score/run-command.js";
import { runGit } from "../score/run-git.js";
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
    env: { ...process.env, PATH: `${binDir}${delimiter}${process.env["PATH"] ?? ""}`, PYTHONDONTWRITEBYTECODE: "1" },
    timeoutMs,
  });
  const output = result.stdout + result.stderr;
  return { statuses: parsePytestSummary(output), exitCode: result.code, timedOut: result.timedOut, lastLine: output.trim().split("\n").at(-1) ?? "" };
}

// As the scorer does: the test patch's files back at the base revision (a patch may have
// touched them), then the test patch, which must apply as it is. Returns why it did not.
async function applyTestPatch(options: { task: Task; checkout: string; workDir: string }): Promise<string | undefined> {
  const { task, checkout, workDir } = options;
  const testFiles = patchFiles(task.test_patch);
  if (testFiles.length > 0) {
    const literal = { GIT_LITERAL_PATHSPECS: "1" };
    const listed = await runGit({ cwd: checkout, args: ["ls-tree", "-r", "-z", "--name-only", task.base_commit, "--", ...testFiles], env: literal });
    const inBase = new Set(listed.stdout.split("\0").filter((path) => path !== ""));
    const restore = testFiles.filter((path) => inBase.has(path));
    if (restore.length > 0) await runGit({ cwd: checkout, args: ["checkout", "-q", task.base_commit, "--", ...restore], env: literal });
    for (const path of testFiles.filter((path) => !inBase.has(path))) await rm(join(checkout, path), { force: true });
  }
  const patchFile = join(workDir, "test.patch");
  await writeFile(patchFile, task.test_patch.endsWith("\n") ? task.test_patch : `${task.test_patch}\n`);
  const result = await runGit({ cwd: checkout, args: ["apply", "--whitespace=nowarn", patchFile], check: false });
  return result.code === 0 ? undefined : result.stderr.trim().split("\n")[0] || `git apply exited ${result.code ?? "none"}`;
}

function firstError(log: string): string {
  const line = log.split("\n").find((candidate) => /^(error|patch): /i.test(candidate) || candidate.includes("FAILED"));
  return `none of git apply, git apply --reject and patch --fuzz applies it${line === undefined ? "" : ` (${line.trim()})`}`;
}

// `python` and `python3` wrappers (not symlinks: a symlink to a venv's interpreter loses the venv).
async function writePythonShims(binDir: string, python: string): Promise<void> {
  await mkdir(binDir, { recursive: true });
  const script = `#!/bin/sh\nexec '${python.replaceAll("'", `'\\''`)}' "$@"\n`;
  for (const name of ["python", "python3"]) {
    await writeFile(join(binDir, name), script);
    await chmod(join(binDir, name), 0o755);
  }
}
