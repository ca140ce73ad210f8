import { readdir, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { onScreenSession, type SessionChooser } from "./on-screen-session.js";
import { knownProjects } from "./project-file.js";
import { liveScreenMarkers } from "./screen-markers.js";
import { type SessionState, sessionStateFile } from "./session-state-file.js";
import { readSessionTitles } from "./session-titles.js";
import { defaultStateRoot } from "./state-dir.js";

export interface StoredSession {
  sessionID: string;
  /** When its state was last written: the session's last routed request or turn end. */
  modified: Date;
  state: SessionState;
}

/**
 * The state dir of the project that holds `directory`: the `stateDir` option when set, else
 * the project (under the default state root) whose worktree contains it, the deepest first.
 */
export async function projectStateDir(options: {
  directory: string;
  stateDir: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}): Promise<string> {
  if (options.stateDir) return options.stateDir;
  const directory = resolve(options.directory);
  const root = defaultStateRoot(options.env, options.home);
  const projects = await knownProjects(root);
  const inside = (base: string) => directory === base || directory.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);
  const matches = projects
    .map((project) => ({ project, depth: Math.max(-1, ...[project.worktree, ...project.directories].filter(inside).map((base) => base.length)) }))
    .filter((match) => match.depth >= 0)
    .sort((a, b) => b.depth - a.depth);
  const best = matches[0];
  if (best) return best.project.stateDir;
  throw new RcmError(
    "session",
    `no opencode-rcm state for ${directory} under ${root}: name the project with --dir <project folder>, or run OpenCode there with the plug-in (in a mode other than native) first; with a stateDir option, pass it as --state-dir`,
  );
}

/** The project's sessions, most recently active first; unreadable files are named in `problems`, never moved. */
export async function storedSessions(stateDir: string): Promise<{ sessions: StoredSession[]; problems: string[] }> {
  const dir = join(stateDir, "sessions");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { sessions: [], problems: [] };
  }
  const sessions: StoredSession[] = [];
  const problems: string[] = [];
  for (const name of names.filter((entry) => /^[A-Za-z0-9_-]+\.json$/.test(entry))) {
    const sessionID = name.slice(0, -".json".length);
    const file = sessionStateFile(stateDir, sessionID);
    const [read, info] = await Promise.all([file.peek(), stat(file.path).catch(() => undefined)]);
    if (read.status === "loaded" && info) sessions.push({ sessionID, modified: info.mtime, state: read.value });
    else if (read.status === "unreadable") problems.push(`${file.path}: ${read.reason}`);
  }
  sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime() || a.sessionID.localeCompare(b.sessionID));
  return { sessions, problems };
}

/** How the session was chosen: the answer's first line says it. */
export type SessionPick =
  | { how: "named" }
  | { how: "latest" }
  | { how: "on-screen"; picked: boolean; otherScreens: number }
  | { how: "no-screen"; reason: "no-tui" | "no-state" };

export interface FoundSession extends StoredSession {
  /** As the TUI showing it knows it, else as the server part last saw it. */
  title: string | undefined;
  pick: SessionPick;
}

/**
 * One session by id or unique prefix; `latest`, the most recently written one; none given,
 * the one on screen in the TUI used last here (see onScreenSession), else the latest.
 */
export async function findSession(options: {
  stateDir: string;
  wanted: string | undefined;
  /** How to ask which session, when two TUIs were used at the same time; none: an error lists them. */
  choose?: SessionChooser | undefined;
  isAlive?: (pid: number) => boolean;
}): Promise<FoundSession> {
  const { stateDir, wanted } = options;
  const { sessions, problems } = await storedSessions(stateDir);
  if (sessions.length === 0) {
    throw new RcmError("session", `no sessions in ${join(stateDir, "sessions")}${problems.length > 0 ? ` (unreadable: ${problems.join("; ")})` : ""}`);
  }
  const [markers, titles] = await Promise.all([liveScreenMarkers(stateDir, options.isAlive), readSessionTitles(stateDir)]);
  const found = (session: StoredSession, pick: SessionPick): FoundSession => {
    const title = markers.find((marker) => marker.sessionID === session.sessionID && marker.title)?.title ?? titles[session.sessionID]?.title;
    return { ...session, title, pick };
  };
  const latest = sessions[0] as StoredSession;
  if (wanted === "latest") return found(latest, { how: "latest" });
  if (wanted === undefined) {
    const onScreen = await onScreenSession({ markers, hasState: (id) => sessions.some((session) => session.sessionID === id), choose: options.choose });
    if (onScreen.kind === "none") return found(latest, { how: "no-screen", reason: onScreen.reason });
    const shown = sessions.find((session) => session.sessionID === onScreen.marker.sessionID) as StoredSession;
    return found(shown, { how: "on-screen", picked: onScreen.picked, otherScreens: onScreen.otherScreens });
  }
  const exact = sessions.find((session) => session.sessionID === wanted);
  if (exact) return found(exact, { how: "named" });
  const byPrefix = sessions.filter((session) => session.sessionID.startsWith(wanted));
  if (byPrefix.length === 1) return found(byPrefix[0] as StoredSession, { how: "named" });
  const known = sessions
    .slice(0, 5)
    .map((session) => session.sessionID)
    .join(", ");
  throw new RcmError(
    "session",
    byPrefix.length > 1
      ? `"${wanted}" matches ${byPrefix.length} sessions (${byPrefix.map((session) => session.sessionID).join(", ")}): give more of the id`
      : `no session "${wanted}" in ${join(stateDir, "sessions")} (recent: ${known}; opencode-rcm sessions lists them)`,
  );
}
