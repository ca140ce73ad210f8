import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../../../kit/package-root.js";
import type { TaskReport } from "../score/index.js";
import type { Task } from "../suite/schema.js";
import { type Container, startContainer } from "./docker.js";

/** The PATH inside the containers (the host's may name directories the image lacks). */
export const CONTAINER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The paths a session's containers see at the same place as the host: the run directory
 * (read-write: checkouts, OpenCode's home, the scoring scratch), this package (read-only:
 * the OpenCode binary and the plug-in, nothing installed at run time) and the suite
 * (read-only: its bundles).
 */
export function sessionMounts(options: { outDir: string; suiteDir: string }): { path: string; readOnly?: boolean }[] {
  return [{ path: options.outDir }, { path: packageRoot(), readOnly: true }, { path: options.suiteDir, readOnly: true }];
}

/** A container name docker accepts, unique per run, mode and session. */
export function containerName(parts: readonly string[]): string {
  return `rcm-${parts.join("-")}`.replace(/[^a-zA-Z0-9_.-]+/g, "-").slice(0, 120);
}

/** Runs git inside the container, as the host's checkout code would on the host. */
export function containerGit(container: Container): (cwd: string, args: readonly string[]) => Promise<string> {
  return (cwd, args) => container.exec(["git", "-c", "safe.directory=*", ...args], { cwd, env: { PATH: CONTAINER_PATH, HOME: cwd } });
}

/**
 * Scores a patch in a fresh container of the task's image: the bench's own scorer, run by the
 * OpenCode binary's JavaScript runtime inside it, so the image's git, patch and Python decide.
 */
export async function scoreInContainer(options: {
  image: string;
  name: string;
  mounts: readonly { path: string; readOnly?: boolean }[];
  task: Task;
  repoSource: string;
  patch: string | null;
  workDir: string;
  timeoutMs: number;
  /** The opencode binary (mounted at the same path), whose runtime runs the scorer. */
  binary: string;
}): Promise<TaskReport> {
  await mkdir(options.workDir, { recursive: true });
  const jobFile = join(options.workDir, "..", "score-job.json");
  const out = join(options.workDir, "..", "score-report.json");
  await writeFile(
    jobFile,
    JSON.stringify({ task: options.task, repoSource: options.repoSource, patch: options.patch, workDir: options.workDir, timeoutMs: options.timeoutMs, out }),
  );
  const container = await startContainer({ image: options.image, name: options.name, mounts: options.mounts });
  try {
    const script = join(packageRoot(), "dist", "lab", "bench", "score", "score-job.js");
    await container.exec([options.binary, script, jobFile], {
      env: { PATH: CONTAINER_PATH, BUN_BE_BUN: "1", HOME: options.workDir, TMPDIR: options.workDir },
    });
    return JSON.parse(await readFile(out, "utf8")) as TaskReport;
  } finally {
    await container.remove();
  }
}
