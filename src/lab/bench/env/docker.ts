import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { messageOf } from "../../../kit/errors/message-of.js";
import { RcmError } from "../../../kit/errors/rcm-error.js";

const run = promisify(execFile);

/** Every container a bench process starts carries this label, so none can be lost track of. */
const CONTAINER_LABEL = "opencode-rcm.bench";

/** A container the bench started; removed by `remove()`, and in any case when this process exits. */
export interface Container {
  id: string;
  name: string;
  /** The `docker exec` arguments that run `command` inside, in `cwd`, with `env`. */
  execArgs(command: readonly string[], options?: { cwd?: string; env?: Record<string, string>; interactive?: boolean }): string[];
  /** Runs a command inside and returns its stdout; rejects with its stderr when it fails. */
  exec(command: readonly string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<string>;
  remove(): Promise<void>;
}

const live = new Set<string>();
let hooked = false;

// A run that is interrupted, killed by a test's timeout or fails mid-session still removes
// its containers: the exit handler runs synchronously on every way out of the process.
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", () => {
    if (live.size === 0) return;
    try {
      execFileSync("docker", ["rm", "-f", ...live], { stdio: "ignore", timeout: 60_000 });
    } catch {
      // Nothing more can be done on the way out.
    }
  });
}

/** A clear error when the docker CLI or daemon is missing, naming what to do. */
export async function checkDocker(): Promise<void> {
  try {
    await run("docker", ["version", "--format", "{{.Server.Version}}"], { timeout: 20_000 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RcmError("bench-env", `--env docker needs a running Docker daemon (docker version failed: ${reason}); scripts/setup.sh installs and starts one`);
  }
}

export async function imageExists(image: string): Promise<boolean> {
  return run("docker", ["image", "inspect", image], { timeout: 20_000 }).then(
    () => true,
    () => false,
  );
}

/**
 * Starts a long-lived container from `image` on the host's network (the daemon here has no
 * bridge), with `mounts` bound at the same paths inside, so every path the bench hands
 * around means the same file on both sides.
 */
export async function startContainer(options: { image: string; name: string; mounts: readonly { path: string; readOnly?: boolean }[] }): Promise<Container> {
  hookExit();
  const volumes = options.mounts.flatMap(({ path, readOnly }) => ["-v", `${path}:${path}${readOnly ? ":ro" : ""}`]);
  const { stdout } = await run(
    "docker",
    ["run", "-d", "--network", "host", "--name", options.name, "--label", CONTAINER_LABEL, ...volumes, "--entrypoint", "sleep", options.image, "infinity"],
    { timeout: 300_000 },
  ).catch((error: unknown) => {
    throw new Error(
      `could not start a container from image "${options.image}": ${error instanceof Error ? error.message.split("\n").slice(0, 3).join(" ") : String(error)}`,
    );
  });
  const id = stdout.trim();
  live.add(id);
  const execArgs: Container["execArgs"] = (command, execOptions = {}) => [
    "exec",
    ...(execOptions.interactive ? ["-i"] : []),
    ...(execOptions.cwd ? ["-w", execOptions.cwd] : []),
    ...Object.entries(execOptions.env ?? {}).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
    id,
    ...command,
  ];
  return {
    id,
    name: options.name,
    execArgs,
    async exec(command, execOptions) {
      try {
        return (await run("docker", execArgs(command, execOptions), { maxBuffer: 64 * 1024 * 1024, timeout: 3_600_000 })).stdout;
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr ?? "";
        throw new Error(`in container ${options.name}: ${command.join(" ")} failed: ${stderr.trim() || messageOf(error)}`);
      }
    },
    async remove() {
      await run("docker", ["rm", "-f", id], { timeout: 120_000 }).catch(() => undefined);
      live.delete(id);
    },
  };
}

/** The containers of this label still present (tests: none may be left behind). */
export async function labelledContainers(): Promise<string[]> {
  const { stdout } = await run("docker", ["ps", "-a", "--filter", `label=${CONTAINER_LABEL}`, "--format", "{{.ID}}"], { timeout: 20_000 });
  return stdout.split("\n").filter((line) => line.trim() !== "");
}
