import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { patchFiles } from "../patch/patch-files.js";
import type { Task } from "../suite/schema.js";
import type { CommandResult } from "./run-command.js";
import { runGit } from "./run-git.js";

/**
 * As SWE-bench does before running the tests: the test patch's files back at the base
 * revision (a submitted patch may have touched them), then the test patch, which must apply
 * as it is. Returns git apply's result; `env` is added to git's environment.
 */
export async function resetAndApplyTestPatch(options: { checkout: string; workDir: string; task: Task; env?: Record<string, string> }): Promise<CommandResult> {
  const { checkout, workDir, task, env = {} } = options;
  const testFiles = patchFiles(task.test_patch);
  if (testFiles.length > 0) {
    const literal = { ...env, GIT_LITERAL_PATHSPECS: "1" };
    const listed = await runGit({ cwd: checkout, args: ["ls-tree", "-r", "-z", "--name-only", task.base_commit, "--", ...testFiles], env: literal });
    const inBase = new Set(listed.stdout.split("\0").filter((path) => path !== ""));
    const restore = testFiles.filter((path) => inBase.has(path));
    if (restore.length > 0) await runGit({ cwd: checkout, args: ["checkout", "-q", task.base_commit, "--", ...restore], env: literal });
    for (const path of testFiles.filter((path) => !inBase.has(path))) await rm(join(checkout, path), { force: true });
  }
  const patchFile = join(workDir, "test.patch");
  await writeFile(patchFile, task.test_patch.endsWith("\n") ? task.test_patch : `${task.test_patch}\n`);
  return runGit({ cwd: checkout, args: ["apply", "--verbose", "--whitespace=nowarn", patchFile], env, check: false });
}

/** `python` and `python3` wrappers in `binDir` (not symlinks: a symlink to a venv's interpreter loses the venv). */
export async function writePythonShims(binDir: string, python: string): Promise<void> {
  await mkdir(binDir, { recursive: true });
  const script = `#!/bin/sh\nexec '${python.replaceAll("'", `'\\''`)}' "$@"\n`;
  for (const name of ["python", "python3"]) {
    const file = join(binDir, name);
    await writeFile(file, script);
    await chmod(file, 0o755);
  }
}
