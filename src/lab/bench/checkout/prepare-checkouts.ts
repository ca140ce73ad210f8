import { mkdir, rm } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { git } from "../../harness/git-repo.js";
import type { SessionSpec, Suite, Task } from "../suite/schema.js";
import { workspaceNames } from "./workspace-names.js";

/** Where a task's repository comes from: a bundle inside the suite, or a URL. */
export function repoSource(suite: Suite, task: Task): string {
  if (task.repo_bundle) return isAbsolute(task.repo_bundle) ? task.repo_bundle : resolve(suite.dir, task.repo_bundle);
  return task.repo_url as string;
}

export interface Checkout {
  task: Task;
  /** Absolute path of the checkout: what requests are prefixed with. */
  workspace: string;
  name: string;
}

/**
 * One fresh git checkout per task of the session, at the task's base commit, under `dir`
 * (`dir/ws1`...). An existing directory is replaced: a session always starts from clean files.
 */
export async function prepareCheckouts(options: {
  suite: Suite;
  session: SessionSpec;
  dir: string;
  seed: number;
  /** Runs git (in a container with `--env docker`); the host's git by default. */
  git?: (cwd: string, args: readonly string[]) => Promise<unknown>;
}): Promise<Map<string, Checkout>> {
  const { suite, session, dir, seed } = options;
  const runGit = options.git ?? git;
  const taskIDs = [session.focus, ...session.interruptions];
  const names = workspaceNames(taskIDs, { seed, sessionID: session.session_id });
  const checkouts = new Map<string, Checkout>();
  await mkdir(dir, { recursive: true });
  for (const id of taskIDs) {
    const task = suite.tasks.find((candidate) => candidate.instance_id === id);
    if (!task) throw new Error(`session ${session.session_id} names unknown task ${id}`);
    const name = names.get(id) as string;
    const workspace = join(dir, name);
    await rm(workspace, { recursive: true, force: true });
    await runGit(dir, ["clone", "-q", "--no-hardlinks", repoSource(suite, task), name]);
    await runGit(workspace, ["checkout", "-q", "--detach", task.base_commit]);
    checkouts.set(id, { task, workspace, name });
  }
  return checkouts;
}
