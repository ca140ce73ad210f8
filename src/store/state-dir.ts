import { join } from "node:path";

/**
 * Where a project's RCM state lives: the `stateDir` option if set; inside a git worktree,
 * `<worktree>/.opencode/rcm/`; otherwise `<XDG_DATA_HOME or ~/.local/share>/opencode/rcm/<projectID>/`.
 * A function of its inputs, never read at import time, so tests can point it anywhere.
 */
export function resolveStateDir(options: {
  stateDir?: string | undefined;
  worktree: string;
  projectID: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}): string {
  if (options.stateDir) return options.stateDir;
  if (options.worktree && options.worktree !== "/") return join(options.worktree, ".opencode", "rcm");
  const dataHome = options.env["XDG_DATA_HOME"] || join(options.home, ".local", "share");
  return join(dataHome, "opencode", "rcm", options.projectID);
}

/** One file per session; session ids are OpenCode's (`ses_...`), safe as file names. */
export function sessionStatePath(stateDir: string, sessionID: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionID)) throw new Error(`unsafe session id for a file name: ${JSON.stringify(sessionID)}`);
  return join(stateDir, "sessions", `${sessionID}.json`);
}
