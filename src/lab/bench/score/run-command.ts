import { spawn } from "node:child_process";

/** What a finished (or killed) command left behind. */
export interface CommandResult {
  /** The exit code; null when the command was killed or could not be started. */
  code: number | null;
  stdout: string;
  /** Standard error, plus the reason when the command could not be started. */
  stderr: string;
  /** Killed, with its whole process group, because it ran past `timeoutMs`. */
  timedOut: boolean;
}

/** How long to wait for the output pipes to close once the command itself has exited. */
const PIPE_GRACE_MS = 1000;

/**
 * Runs `command` with `args` (no shell) in `cwd`, in a process group of its own so that a
 * timeout kills everything it started. Never rejects: a command that cannot be started
 * gives `code: null` and the reason in `stderr`.
 */
export function runCommand(options: {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment of the command; `process.env` when absent. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<CommandResult> {
  const { command, args, cwd, env = process.env, timeoutMs } = options;
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let spawnError: Error | undefined;
    let exitCode: number | null = null;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const child = spawn(command, [...args], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      clearTimeout(graceTimer);
      child.stdout.destroy();
      child.stderr.destroy();
      const errorText = spawnError === undefined ? "" : `${Buffer.concat(stderr).length > 0 ? "\n" : ""}${spawnError.message}`;
      resolve({
        code: spawnError === undefined ? exitCode : null,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8") + errorText,
        timedOut,
      });
    };

    if (timeoutMs !== undefined) {
      killTimer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, timeoutMs);
    }
    child.on("error", (error) => {
      spawnError = error;
      finish();
    });
    child.on("exit", (code) => {
      exitCode = code;
      clearTimeout(killTimer);
      // Pipes still open after the grace period mean background processes of the group hold
      // them: the group still exists (so its id cannot have been reused); end it.
      graceTimer = setTimeout(() => {
        killGroup(child.pid);
        finish();
      }, PIPE_GRACE_MS);
    });
    child.on("close", finish);
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}
