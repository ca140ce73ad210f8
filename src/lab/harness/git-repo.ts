import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

// Fixed identity and dates: the same files give the same commit on every machine.
const GIT_ENV = {
  GIT_AUTHOR_NAME: "opencode-rcm",
  GIT_AUTHOR_EMAIL: "rcm@example.invalid",
  GIT_COMMITTER_NAME: "opencode-rcm",
  GIT_COMMITTER_EMAIL: "rcm@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/** Runs git in `cwd` with a fixed identity, no user config, and returns stdout. */
export async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run("git", [...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", ...GIT_ENV },
  });
  return stdout;
}

/** Creates a git repository at `dir` holding `files`, committed once. */
export async function createGitRepo(dir: string, files: Record<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true });
  await git(dir, ["init", "-q", "-b", "main"]);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "-m", "initial"]);
  return (await git(dir, ["rev-parse", "HEAD"])).trim();
}
