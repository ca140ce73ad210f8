import { type ChildProcess, spawn } from "node:child_process";
import { createOpencodeClient, type OpencodeClient } from "@opencode-ai/sdk/v2";
import { freePort } from "./free-port.js";
import type { IsolatedHome } from "./isolated-home.js";
import { opencodeBinary } from "./opencode-binary.js";

export interface OpencodeServer {
  url: string;
  /** The server process, for resource figures (CPU time from /proc). */
  pid: number | undefined;
  /** A client bound to `directory`; sessions created through it run there. */
  client(directory: string): OpencodeClient;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  close(): Promise<void>;
}

// Servers still running when this process exits (a test that timed out never reaches its
// `finally`): their process groups are killed on the way out, so none outlives its run.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

/**
 * Starts `opencode serve` on loopback with a random free port, in an isolated home.
 * We spawn the binary ourselves rather than with the SDK's createOpencodeServer, which
 * always inherits process.env and a fixed port: we need a private env per server.
 */
export async function startOpencodeServer(options: {
  home: IsolatedHome;
  cwd: string;
  env?: Record<string, string>;
  /** The opencode binary; default: opencodeBinary() (OPENCODE_BIN in this process's environment, ...). */
  binary?: string | undefined;
  timeoutMs?: number;
  /** How to start the binary elsewhere (in a container): the command that runs it with these args and env. */
  launch?: (command: { binary: string; args: string[]; env: Record<string, string> }) => { command: string; args: string[] };
}): Promise<OpencodeServer> {
  const port = await freePort();
  const args = ["serve", "--hostname=127.0.0.1", `--port=${port}`, "--print-logs", "--log-level=DEBUG"];
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.home.env, ...options.env };
  const binary = options.binary ?? opencodeBinary();
  const launched = options.launch?.({ binary, args, env });
  const child = spawn(launched?.command ?? binary, launched?.args ?? args, {
    cwd: options.cwd,
    env: launched ? { PATH: process.env.PATH ?? "/usr/bin:/bin" } : env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await waitForUrl(child, () => output, options.timeoutMs ?? 60_000).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  return {
    url,
    pid: child.pid,
    client: (directory) => createOpencodeClient({ baseUrl: url, directory }),
    output: () => output,
    close: () => stop(child),
  };
}

function waitForUrl(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`opencode serve did not start within ${timeoutMs} ms\n${output()}`)), timeoutMs);
    const onData = () => {
      const match = /opencode server listening on (http:\/\/[^\s]+)/.exec(output());
      if (match?.[1]) done(match[1]);
    };
    const onExit = (code: number | null) => fail(new Error(`opencode serve exited with code ${code}\n${output()}`));
    // A missing binary or working directory: spawn reports ENOENT here, not by exiting.
    const onError = (error: Error) => fail(new Error(`opencode serve could not start: ${error.message}`));
    function done(url: string) {
      cleanup();
      resolve(url);
    }
    function fail(error: Error) {
      cleanup();
      reject(error);
    }
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      child.off("error", onError);
    }
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", onExit);
    child.on("error", onError);
  });
}

// Kills the whole process group (the server may start shells and LSP children).
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => killGroup(child, name);
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

function killGroup(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), name);
  } catch {
    // already gone
  }
}
