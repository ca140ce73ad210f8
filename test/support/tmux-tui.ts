import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import type { IsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { opencodeBinary } from "../../src/lab/harness/opencode-binary.js";

const run = promisify(execFile);

/** The real OpenCode TUI in a private tmux server, driven by keystrokes and read from the screen. */
export interface TuiSession {
  /** The visible screen as text (`capture-pane -p`: no colours, no scrollback). */
  screen(): Promise<string>;
  /** Polls the screen until `match` holds; throws with the last screen after `timeoutMs`. */
  waitFor(match: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /**
   * Types a whole line into the empty prompt in one go (typed piecemeal, a slash command's
   * pop-up can swallow it), waits until the prompt shows it, presses Enter, and waits until
   * `done` holds and the TUI is idle again.
   */
  submit(line: string, done: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Sends keys as tmux names them ("Enter", "Down", "Escape", "C-p"). */
  keys(...keys: string[]): Promise<void>;
  /** Quits OpenCode and the tmux server; waits until the OpenCode process is gone. */
  close(): Promise<void>;
}

// While a turn runs, the footer offers "esc interrupt".
/** A row of the slash-command list the TUI opens over the prompt: "┃ /rcm      opencode-rcm menu: ...". */
const SLASH_LIST_ROW = /^\s*┃ \/[\w-]+ {2,}\S/m;
const BUSY = /esc interrupt/;

/**
 * Starts `opencode` (the pinned binary) in `directory` inside a new tmux server of its own
 * (`-L`, no user config), with only the isolated home's environment.
 */
export async function startTui(options: {
  directory: string;
  home: Pick<IsolatedHome, "env">;
  modelName: string;
  columns?: number;
  rows?: number;
  /** The command to run instead of the pinned OpenCode 1.18 binary (OpenCode 2: its binary with `--standalone`). */
  command?: readonly string[];
  /** A panel is drawn beside the prompt's rows (OpenCode 2's "Getting started"): text past a wide gap is not the prompt's. */
  panelBesidePrompt?: boolean;
}): Promise<TuiSession> {
  const socket = `rcm-tui-${randomBytes(4).toString("hex")}`;
  const tmux = async (...args: string[]): Promise<string> => (await run("tmux", ["-L", socket, ...args], { encoding: "utf8" })).stdout;
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color", COLORTERM: "truecolor", LANG: "C.UTF-8", ...options.home.env };
  await tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "oc",
    "-x",
    String(options.columns ?? 160),
    "-y",
    String(options.rows ?? 60),
    "-c",
    options.directory,
    "env",
    "-i",
    ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
    ...(options.command ?? [opencodeBinary()]),
  );
  await tmux("set-option", "-t", "oc", "remain-on-exit", "on");
  const pid = Number((await tmux("list-panes", "-t", "oc", "-F", "#{pane_pid}")).trim());
  const screen = () => tmux("capture-pane", "-p", "-t", "oc");
  // The prompt's text sits in the "┃" block above its footer ("Build · <model>"), between
  // blank "┃" rows, wrapped over as many rows as it needs.
  const footer = new RegExp(`┃\\s+Build · ${options.modelName}`);
  const promptText = (text: string): string | undefined => {
    const lines = text.split("\n");
    const at = lines.findIndex((line) => footer.test(line));
    if (at < 2) return undefined;
    const rows: string[] = [];
    for (let row = at - 2; row >= 0; row -= 1) {
      const match = /^\s*┃(.*)$/.exec(lines[row] ?? "");
      const text = options.panelBesidePrompt ? besidePanel(match?.[1] ?? "") : (match?.[1] ?? "").trim();
      if (!match || text === "") break;
      rows.unshift(text);
    }
    return rows.join(" ");
  };
  const waitFor = async (match: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = await screen();
      if (match(text)) return text;
      if (Date.now() > deadline) throw new Error(`TUI: timed out waiting for ${what}; the screen was:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  };
  const close = async (): Promise<void> => {
    await tmux("kill-server").catch(() => undefined);
    // The pane's process gets SIGHUP; wait until it is gone (or only a zombie for PID 1 to reap).
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
    if (isRunning(pid)) process.kill(pid, "SIGKILL");
  };
  try {
    await waitFor((text) => footer.test(text), "the prompt", 90_000);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    screen,
    waitFor,
    async submit(line, done, timeoutMs = 60_000) {
      await tmux("send-keys", "-t", "oc", "C-u");
      await tmux("send-keys", "-t", "oc", "-l", line);
      // Compared without white space: wrapping may split the line anywhere.
      const typed = (text: string) => promptText(text)?.replace(/\s+/g, "") === line.replace(/\s+/g, "");
      await waitFor(typed, `the prompt to read ${JSON.stringify(line)}`, 10_000);
      await tmux("send-keys", "-t", "oc", "Enter");
      // While the slash list is still being filtered, the TUI can swallow Enter: the line stays in
      // the prompt with the list open under it. Press Enter again then (never once the list is gone,
      // where it would pick in a dialog), at most twice.
      const swallowed = (text: string) => typed(text) && SLASH_LIST_ROW.test(text);
      for (let retry = 0; retry < 2; retry += 1) {
        const settled = await waitFor((text) => (done(text) && !BUSY.test(text)) || swallowed(text), `the answer to ${JSON.stringify(line)}`, timeoutMs);
        if (!swallowed(settled) || done(settled)) break;
        // An Enter the TUI took is handled well within this; one it swallowed is still not after it.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        if (swallowed(await screen())) await tmux("send-keys", "-t", "oc", "Enter");
      }
      return waitFor((text) => done(text) && !BUSY.test(text), `the answer to ${JSON.stringify(line)}`, timeoutMs);
    },
    async keys(...keys) {
      await tmux("send-keys", "-t", "oc", ...keys);
    },
    close,
  };
}

function isRunning(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
  } catch {
    return false;
  }
}

/** A prompt row's own text when a panel is drawn beside it, past a wide gap. */
function besidePanel(row: string): string {
  return row
    .replace(/(\S)\s{12,}\S.*$/, "$1")
    .replace(/^\s{12,}\S.*$/, "")
    .trim();
}
