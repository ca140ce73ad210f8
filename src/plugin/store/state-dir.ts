import { join } from "node:path";

/**
 * Where a project's RCM state lives: the `stateDir` option if set, otherwise
 * `<XDG_DATA_HOME or ~/.local/share>/opencode/rcm/<projectID>/`. Never inside the worktree:
 * state files there would show up in `git status` and in the patch a benchmark scores.
 * A function of its inputs, never read at import time, so tests can point it anywhere.
 */
export function resolveStateDir(options: {
  stateDir?: string | undefined;
  projectID: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}): string {
  if (options.stateDir) return options.stateDir;
  return join(defaultStateRoot(options.env, options.home), safeSegment(options.projectID));
}

/** `<XDG_DATA_HOME or ~/.local/share>/opencode/rcm`: one folder per project below it. */
export function defaultStateRoot(env: Readonly<Record<string, string | undefined>>, home: string): string {
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "opencode", "rcm");
}

/** One file per session; session ids are OpenCode's (`ses_...`), safe as file names. */
export function sessionStatePath(stateDir: string, sessionID: string): string {
  return join(stateDir, "sessions", `${safeSegment(sessionID)}.json`);
}

function safeSegment(id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`unsafe id for a file name: ${JSON.stringify(id)}`);
  return id;
}
