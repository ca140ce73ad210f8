import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "./run-command.js";
import { runGit } from "./run-git.js";

export type ApplyMethod = "git apply" | "git apply --reject" | "patch --fuzz";

export interface ApplyResult {
  applied: boolean;
  /** The method that applied the patch; null when none did (or the patch was empty). */
  method: ApplyMethod | null;
  /** What each attempt printed, in order. */
  log: string;
}

const APPLY_TIMEOUT_MS = 120_000;

/**
 * Applies `patch` to `checkout` as SWE-bench does: `git apply`, then `git apply --reject`,
 * then `patch --batch --fuzz=5 -p1`, the first that succeeds wins. Meant for a scratch
 * checkout with no changes of its own: after a failed attempt the checkout is reset to HEAD
 * (`git reset --hard`, `git clean -fdq`), so it is clean again when nothing applied. `tempDir`
 * holds the patch file (and is the commands' TMPDIR); the system's temp dir by default.
 */
export async function applyPatch(checkout: string, patch: string, tempDir?: string): Promise<ApplyResult> {
  if (patch.trim() === "") return { applied: false, method: null, log: "empty patch: nothing to apply\n" };
  const tmp = tempDir === undefined ? {} : { TMPDIR: tempDir };
  const patchDir = await mkdtemp(join(tempDir ?? tmpdir(), "rcm-apply-"));
  try {
    const patchFile = join(patchDir, "model.patch");
    await writeFile(patchFile, patch.endsWith("\n") ? patch : `${patch}\n`);
    const attempts: Array<{ method: ApplyMethod; command: string; args: string[] }> = [
      { method: "git apply", command: "git", args: ["apply", "--verbose", "--whitespace=nowarn", patchFile] },
      { method: "git apply --reject", command: "git", args: ["apply", "--verbose", "--reject", "--whitespace=nowarn", patchFile] },
      // No .orig backups: the checkout is tested right after.
      { method: "patch --fuzz", command: "patch", args: ["--batch", "--fuzz=5", "-p1", "--no-backup-if-mismatch", "-i", patchFile] },
    ];
    let log = "";
    for (const attempt of attempts) {
      const result = await runCommand({
        command: attempt.command,
        args: attempt.args,
        cwd: checkout,
        env: { ...process.env, ...tmp },
        timeoutMs: APPLY_TIMEOUT_MS,
      });
      log += `$ ${attempt.method}\n${result.stdout}${result.stderr}(exit ${result.code ?? "none"})\n`;
      if (result.code === 0) return { applied: true, method: attempt.method, log };
      await runGit({ cwd: checkout, args: ["reset", "--hard", "-q"], env: tmp });
      await runGit({ cwd: checkout, args: ["clean", "-fdq"], env: tmp });
    }
    return { applied: false, method: null, log };
  } finally {
    await rm(patchDir, { recursive: true, force: true });
  }
}
