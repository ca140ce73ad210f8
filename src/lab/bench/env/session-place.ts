import { join } from "node:path";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import type { Mode } from "../../../plugin/config/options-schema.js";
import { createIsolatedHome } from "../../harness/isolated-home.js";
import { type OpencodeServer, startOpencodeServer } from "../../harness/opencode-server.js";
import { runFiles } from "../run-dir/run-files.js";
import { scoreTask, type TaskReport } from "../score/index.js";
import type { SessionSpec, Suite, Task } from "../suite/schema.js";
import { checkDocker, imageExists, startContainer } from "./docker.js";
import { CONTAINER_PATH, containerGit, containerName, scoreInContainer, sessionMounts } from "./docker-session.js";
import { imageFor } from "./image-name.js";

/** `tempDir`: scratch files and TMPDIR for scoring here (a container uses its own work directory). */
type ScoreOptions = { task: Task; repoSource: string; patch: string | null; workDir: string; timeoutMs: number; tempDir: string };

/** Where a session's checkouts are made and its focus patch is scored. */
export interface SessionPlace {
  /** Runs git for the checkouts; the host's git when absent. */
  git?: (cwd: string, args: readonly string[]) => Promise<unknown>;
  score(options: ScoreOptions): Promise<TaskReport>;
}

export const LOCAL: SessionPlace = { score: (options) => scoreTask(options) };

/** Every image the sessions' focus tasks need must exist before anything starts. */
export async function checkImages(suite: Suite, specs: readonly SessionSpec[], template: string | undefined): Promise<void> {
  await checkDocker();
  const images = new Set(specs.map((spec) => imageFor(taskOf(suite, spec.focus), template)));
  for (const image of images) {
    if (!(await imageExists(image)))
      throw new RcmError(
        "bench-env",
        `--env docker: image "${image}" is not available (docker image inspect found nothing); build or load it, or name another with --image`,
      );
  }
}

/**
 * One session in a container of its focus task's image: the checkouts are made inside it,
 * OpenCode (this package's binary and plug-in, mounted read-only; its home pre-populated in
 * the run directory) runs inside it and is driven from here through its port on the host's
 * network; the patch is then scored in a fresh container of the same image. Every container
 * is removed at the end, on errors and on Ctrl-C alike.
 */
export async function withSessionContainer<T>(
  options: {
    suite: Suite;
    spec: SessionSpec;
    mode: Mode;
    outDir: string;
    config: Record<string, unknown>;
    env: Record<string, string>;
    image?: string | undefined;
    /** The opencode binary, mounted at the same path in the container. */
    binary: string;
  },
  run: (server: OpencodeServer, where: SessionPlace) => Promise<T>,
): Promise<T> {
  const { suite, spec, mode, outDir } = options;
  const image = imageFor(taskOf(suite, spec.focus), options.image);
  const mounts = sessionMounts({ outDir, suiteDir: suite.dir });
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const container = await startContainer({ image, name: containerName([stamp, mode, spec.session_id]), mounts });
  try {
    // A home per session: two servers must not share one OpenCode database.
    const home = await createIsolatedHome({ root: join(runFiles(outDir).home(mode), spec.session_id), config: options.config });
    const server = await startOpencodeServer({
      home,
      cwd: outDir,
      env: options.env,
      binary: options.binary,
      launch: ({ binary, args, env }) => ({
        command: "docker",
        args: container.execArgs([binary, ...args], { cwd: outDir, env: { ...env, PATH: CONTAINER_PATH } }),
      }),
    });
    try {
      return await run(server, {
        git: containerGit(container),
        score: (scoring) =>
          scoreInContainer({ ...scoring, binary: options.binary, image, name: containerName([stamp, mode, spec.session_id, "score"]), mounts }),
      });
    } finally {
      await server.close();
    }
  } finally {
    await container.remove();
  }
}

function taskOf(suite: Suite, id: string): Task {
  const task = suite.tasks.find((candidate) => candidate.instance_id === id);
  if (!task) throw new Error(`unknown task ${id}`);
  return task;
}
