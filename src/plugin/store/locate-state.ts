import { stat } from "node:fs/promises";
import { loadOptions } from "../config/load-options.js";
import { describeProblem } from "../config/option-problem.js";
import type { Options } from "../config/options-schema.js";
import { pluginTupleOptions } from "../config/plugin-tuple.js";
import { pendingIntents } from "./session-inbox.js";
import { type SessionState, sessionStateFile } from "./session-state-file.js";
import { resolveStateDir } from "./state-dir.js";
import { projectStateDir } from "./stored-sessions.js";
import { unfinishedTasks } from "./unfinished-tasks.js";

export interface TuiScope {
  options: Options;
  /** The options' problems, each in words with its file and line. */
  problems: string[];
  /** Where the server part keeps this project's sessions; undefined when it cannot be told yet. */
  stateDir: string | undefined;
}

/**
 * What the TUI part needs to read the server part's state: the same options (rcm.jsonc files,
 * the opencode.json tuple, RCM_* variables) and the same state folder.
 */
export async function locateState(input: {
  directory: string;
  worktree: string;
  /** The `plugin` list of the config the server resolved. */
  plugins: unknown;
  /** Where this package is installed: how our entry in that list is told from others. */
  packageDir: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  projectID: () => Promise<string | undefined>;
}): Promise<TuiScope> {
  const { options, problems } = await loadOptions({
    tuple: pluginTupleOptions(input.plugins, input.packageDir),
    directory: input.directory,
    worktree: input.worktree,
    env: input.env,
    home: input.home,
  });
  const described = problems.map(describeProblem);
  if (options.stateDir) return { options, problems: described, stateDir: options.stateDir };
  const projectID = await input.projectID().catch(() => undefined);
  if (projectID) return { options, problems: described, stateDir: resolveStateDir({ projectID, env: input.env, home: input.home }) };
  const found = await projectStateDir({ directory: input.directory, stateDir: undefined, env: input.env, home: input.home }).catch(() => undefined);
  return { options, problems: described, stateDir: found };
}

/** A session's state as last written, with what waits in its inbox; `stamp` changes whenever either does. */
export interface SessionSnapshot {
  state: SessionState | undefined;
  pending: number;
  /** Unfinished tasks of the project's other sessions, within the resume bounds (0 when they were not asked for). */
  earlierUnfinished: number;
  /** The project's other state files that could not be read while counting them (skipped, left as they are). */
  earlierUnreadable: number;
  stamp: string;
}

/**
 * Reads without changing anything on disk; a file being replaced right now reads as the previous
 * snapshot next time. With `resume` (the options' bounds), it counts the other sessions' unfinished
 * tasks too; a failure to count them counts none: the panel's line about them is a hint.
 */
export async function readSession(stateDir: string, sessionID: string, resume?: Pick<Options["resume"], "maxAgeDays" | "maxTasks">): Promise<SessionSnapshot> {
  const file = sessionStateFile(stateDir, sessionID);
  const { stamp, pending, exists } = await stampOf(stateDir, sessionID);
  const read = exists ? await file.peek() : undefined;
  const earlier = resume ? await unfinishedTasks({ stateDir, now: new Date(), ...resume, exceptSession: sessionID }).catch(() => undefined) : undefined;
  return {
    state: read?.status === "loaded" ? read.value : undefined,
    pending,
    earlierUnfinished: earlier?.tasks.length ?? 0,
    earlierUnreadable: earlier?.problems.length ?? 0,
    stamp,
  };
}

/** Just the stamp, to tell cheaply whether `readSession` would read anything new. */
export async function sessionStamp(stateDir: string, sessionID: string): Promise<string> {
  return (await stampOf(stateDir, sessionID)).stamp;
}

async function stampOf(stateDir: string, sessionID: string): Promise<{ stamp: string; pending: number; exists: boolean }> {
  const info = await stat(sessionStateFile(stateDir, sessionID).path).catch(() => undefined);
  const pending = (await pendingIntents(stateDir, sessionID)).length;
  // The inode too: every save is a rename, so two saves of one size within one mtime tick still differ.
  return { stamp: `${info?.ino ?? 0}:${info?.mtimeMs ?? 0}:${info?.size ?? 0}:${pending}`, pending, exists: info !== undefined };
}
