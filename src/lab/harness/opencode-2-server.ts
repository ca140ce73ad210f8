import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { packageRoot } from "../../kit/package-root.js";
import { freePort } from "./free-port.js";
import { xdgDirsUnder } from "./isolated-home.js";

/** The OpenCode 2 package this harness runs (a dev dependency, pinned; linux x64 only). */
const OPENCODE_2_PACKAGE = "@opencode/cli-linux-x64-baseline";

/** A plug-in as OpenCode 2's `plugins` list names it. */
export type Opencode2PluginEntry = string | { package: string; options?: Record<string, unknown> };

/**
 * The `opencode` binary of OpenCode 2: `OPENCODE2_BIN` when given, else the one of the pinned
 * package. Throws when neither is there.
 */
export function opencode2Binary(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const explicit = env["OPENCODE2_BIN"];
  const candidate = explicit || fromPackage();
  if (candidate && isExecutable(candidate)) return candidate;
  throw new RcmError(
    "opencode-not-found",
    explicit
      ? `OPENCODE2_BIN is ${explicit}, which is not an executable file`
      : `OpenCode 2 not found: install ${OPENCODE_2_PACKAGE} (npm ci installs it on linux x64) or name the binary with OPENCODE2_BIN`,
  );
}

function fromPackage(): string | undefined {
  try {
    return join(dirname(createRequire(join(packageRoot(), "package.json")).resolve(`${OPENCODE_2_PACKAGE}/package.json`)), "bin", "opencode");
  } catch {
    return undefined;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An OpenCode 2 config for quiet offline runs with one OpenAI-compatible model on loopback. */
export function opencode2Config(options: {
  modelBaseURL: string;
  plugins: readonly Opencode2PluginEntry[];
  contextLimit?: number;
  outputLimit?: number;
}): Record<string, unknown> {
  const settings = { baseURL: options.modelBaseURL, apiKey: "unused" };
  const model = {
    package: "@opencode/ai/providers/openai-compatible",
    settings,
    limit: { context: options.contextLimit ?? 200_000, output: options.outputLimit ?? 8_000 },
    capabilities: { tools: true, input: ["text"], output: ["text"] },
  };
  return {
    model: "scripted/scripted",
    share: "disabled",
    providers: { scripted: { package: "@opencode/ai/providers/openai-compatible", settings, models: { scripted: model } } },
    plugins: options.plugins,
  };
}

export interface Opencode2Server {
  url: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** A JSON request to the API (Basic auth), `undefined` for 204; throws with the status and body otherwise. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

/**
 * Private HOME and XDG dirs for OpenCode 2 under `root`, `config` written as the global
 * opencode.json; the environment that runs OpenCode 2 in them (offline, no autoupdate).
 */
export async function createOpencode2Home(options: { root: string; config: Record<string, unknown> }): Promise<{ env: Record<string, string> }> {
  const xdg = await xdgDirsUnder(options.root);
  await mkdir(join(xdg.XDG_CONFIG_HOME, "opencode"), { recursive: true });
  await writeFile(join(xdg.XDG_CONFIG_HOME, "opencode", "opencode.json"), JSON.stringify(options.config, null, 2));
  return { env: { HOME: options.root, ...xdg, OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" } };
}

/**
 * Starts `opencode serve` of OpenCode 2 on loopback with a random free port and password, in
 * private HOME and XDG dirs under `root` (the config written as the global one).
 */
export async function startOpencode2Server(options: {
  root: string;
  cwd: string;
  config: Record<string, unknown>;
  /** Variables the server gets besides PATH and its home's (nothing else of this environment reaches it). */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** The OpenCode 2 binary; default: `opencode2Binary()`. */
  binary?: string | undefined;
}): Promise<Opencode2Server> {
  const home = await createOpencode2Home({ root: options.root, config: options.config });
  const password = randomBytes(12).toString("hex");
  const port = await freePort();
  const child = spawn(
    options.binary ?? opencode2Binary(),
    ["serve", "--hostname", "127.0.0.1", "--port", String(port), "--print-logs", "--log-level", "info"],
    {
      cwd: options.cwd,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...options.env, ...home.env, OPENCODE_PASSWORD: password },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const auth = `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}`;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`OpenCode 2 ${method} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  };
  try {
    await waitForListening(child, () => output, options.timeoutMs ?? 60_000);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { url, output: () => output, api, close: () => stop(child) };
}

function waitForListening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (/server listening on http/.test(output())) return finish();
      if (child.exitCode !== null) return finish(new Error(`opencode 2 serve exited with code ${child.exitCode}\n${output()}`));
      if (Date.now() - started > timeoutMs) finish(new Error(`opencode 2 serve did not start within ${timeoutMs} ms\n${output()}`));
    }, 50);
    child.once("error", (error) => finish(new Error(`opencode 2 serve could not start: ${error.message}`)));
    function finish(error?: Error) {
      clearInterval(timer);
      if (error) reject(error);
      else resolve();
    }
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  killGroup(child, "SIGTERM");
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // already gone
  }
}

/** One session of an OpenCode 2 server, driven through its API. */
export interface Opencode2Session {
  id: string;
  /** Sends a request and waits until the session's loop is idle again. */
  prompt(text: string): Promise<void>;
  /** Runs a command (`name` without the slash) and waits until the session is idle. */
  command(name: string, text: string): Promise<void>;
  /** Compacts by hand and waits. */
  compact(): Promise<void>;
  /** The stored messages, oldest first. */
  messages(): Promise<Array<Record<string, unknown> & { id: string; type: string }>>;
}

/** A new session in `directory`. */
export async function openSession(server: Opencode2Server, directory: string): Promise<Opencode2Session> {
  const created = await server.api<{ data: { id: string } }>("POST", "/api/session", { location: { directory } });
  return sessionOf(server, created.data.id);
}

/** A session the server has stored (one it made before a restart too). */
export function sessionOf(server: Opencode2Server, id: string): Opencode2Session {
  const wait = () => server.api("POST", `/api/experimental/session/${id}/wait`, {});
  return {
    id,
    async prompt(text) {
      await server.api("POST", `/api/session/${id}/prompt`, { text });
      await wait();
    },
    async command(name, text) {
      await server.api("POST", `/api/session/${id}/command`, { name, text });
      await wait();
    },
    async compact() {
      await server.api("POST", `/api/session/${id}/compact`, {});
      await wait();
    },
    async messages() {
      const all: Array<Record<string, unknown> & { id: string; type: string }> = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await server.api<{ data: Array<Record<string, unknown> & { id: string; type: string }>; cursor?: { next?: string } }>(
          "GET",
          `/api/session/${id}/message?${cursor ? `cursor=${encodeURIComponent(cursor)}` : "order=asc"}&limit=200`,
        );
        all.push(...page.data);
        if (page.data.length < 200 || !page.cursor?.next) return all;
        cursor = page.cursor.next;
      }
    },
  };
}
