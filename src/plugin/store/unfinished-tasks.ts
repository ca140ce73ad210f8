import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { TaskRecord } from "../core/memory/record.js";
import { sessionsInUseElsewhere } from "./live-sessions-file.js";
import { type SessionState, sessionStateFile } from "./session-state-file.js";
import { readSessionTitles } from "./session-titles.js";
import { readTaskMarks, taskKey } from "./task-marks.js";

/** One task of an earlier session that nobody marked done or dropped. */
export interface UnfinishedTask {
  sessionID: string;
  /** As the server part last saw it; undefined when it never noted one. */
  sessionTitle: string | undefined;
  taskId: string;
  taskTitle: string;
  /** The newest model call of the task when the state tells it, else when the session's state was last written. */
  lastActive: Date;
  /** Asks of its record not yet shown done (not started or worked on); 0 without a record. */
  pending: number;
  /** Its record shows every ask done: offered as done, never closed without the person's word. */
  allDone: boolean;
  /** Its session is in use in another running OpenCode (that process's pid): taken there, never resumed here. */
  inUseBy?: number;
  /** With `withTaken`: another session resumed it (`<session>/<task>` there); such a task is listed, never offered. */
  takenBy?: string | undefined;
}

export interface UnfinishedTasks {
  /** The most recently active first, at most `maxTasks`. */
  tasks: UnfinishedTask[];
  /** Unfinished tasks left out by the bounds (older than `maxAgeDays`, or past `maxTasks`). */
  beyond: number;
  /** Sessions not read at all: their state was last written before `maxAgeDays`, so none of their tasks is recent enough. */
  olderSessions: number;
  /** Files skipped, each naming the file and why: never loaded, never moved. */
  problems: string[];
  /** With `withDone`: the tasks marked done, within `maxAgeDays` (resuming tells a request about one of them from one about its unfinished neighbour). */
  done?: UnfinishedTask[];
}

/**
 * The project's unfinished tasks across its stored sessions (sub-agent sessions keep no
 * state, so they have none): every task not marked done or dropped, nor split off into
 * another session. Read only: nothing on disk changes.
 */
export async function unfinishedTasks(options: {
  stateDir: string;
  now: Date;
  /** The `resume` options; `undefined` bounds: every unfinished task. */
  maxAgeDays: number | undefined;
  maxTasks: number | undefined;
  /** Left out, e.g. the session asking (its own tasks are not "earlier"). */
  exceptSession?: string | undefined;
  /**
   * Lists the tasks another session resumed too, with `takenBy` (the `/rcm resume` picker shows
   * them as taken): within `maxAgeDays`, beside the `maxTasks` others, never counted as unfinished.
   */
  withTaken?: boolean;
  withDone?: boolean;
}): Promise<UnfinishedTasks> {
  const { stateDir, now } = options;
  const problems: string[] = [];
  const oldest = options.maxAgeDays === undefined ? -Infinity : now.getTime() - options.maxAgeDays * 86_400_000;
  const [{ sessions, olderSessions }, titles, marks, inUse] = await Promise.all([
    readSessions({ stateDir, problems, oldest, except: options.exceptSession }),
    readSessionTitles(stateDir),
    readTaskMarks(stateDir),
    sessionsInUseElsewhere(stateDir, now, { asking: options.exceptSession }),
  ]);
  if (marks.problem) problems.push(`${marks.problem} (no task counts as marked)`);
  const all: UnfinishedTask[] = [];
  const taken: UnfinishedTask[] = [];
  const done: UnfinishedTask[] = [];
  // Where a session's tasks were last active at the same moment (its file's time), the one with the later request is the more recent.
  const lastRequest = new Map<UnfinishedTask, number>();
  for (const { sessionID, modified, state } of sessions) {
    const { order, decisions } = state.ledger;
    for (const task of state.ledger.tasks) {
      const mark = marks.marks[taskKey(sessionID, task.id)];
      const takenBy = options.withTaken && mark?.mark === "resumed" ? (mark.by ?? "another session") : undefined;
      const finished = options.withDone === true && mark?.mark === "done";
      if (task.split || (mark && takenBy === undefined && !finished)) continue;
      const record = state.records[task.id];
      const listed: UnfinishedTask = {
        sessionID,
        sessionTitle: titles[sessionID]?.title,
        taskId: task.id,
        taskTitle: task.title,
        lastActive: lastActive(state, task.id) ?? modified,
        pending: record?.pending.length ?? 0,
        allDone: record !== undefined && everyAskDone(record),
        ...inUseBy(inUse, sessionID),
        ...(takenBy === undefined ? {} : { takenBy }),
      };
      lastRequest.set(
        listed,
        order.findLastIndex((messageID) => decisions[messageID]?.task === task.id),
      );
      (finished ? done : takenBy === undefined ? all : taken).push(listed);
    }
  }
  /** The most recently active first; then by session and task, so the numbers a list gives stay put. */
  const byRecency = (a: UnfinishedTask, b: UnfinishedTask): number =>
    b.lastActive.getTime() - a.lastActive.getTime() ||
    a.sessionID.localeCompare(b.sessionID) ||
    (lastRequest.get(b) ?? -1) - (lastRequest.get(a) ?? -1) ||
    a.taskId.localeCompare(b.taskId, "en", { numeric: true });
  all.sort(byRecency);
  const recent = all.filter((task) => task.lastActive.getTime() >= oldest);
  const tasks = options.maxTasks === undefined ? recent : recent.slice(0, options.maxTasks);
  const shownTaken = taken.filter((task) => task.lastActive.getTime() >= oldest);
  return {
    tasks: [...tasks, ...shownTaken].sort(byRecency),
    beyond: all.length - tasks.length,
    olderSessions,
    problems: problems.sort(),
    ...(options.withDone ? { done: done.filter((task) => task.lastActive.getTime() >= oldest).sort(byRecency) } : {}),
  };
}

function inUseBy(inUse: ReadonlyMap<string, number>, sessionID: string): { inUseBy?: number } {
  const pid = inUse.get(sessionID);
  return pid === undefined ? {} : { inUseBy: pid };
}

/** A record shows every ask done when it has asks or progress and nothing is pending. */
function everyAskDone(record: TaskRecord): boolean {
  return record.pending.length === 0 && (record.constraints.length > 0 || record.progress.length > 0);
}

/** The newest model call that had the task's record (ms since the epoch in the state), if any. */
function lastActive(state: SessionState, taskId: string): Date | undefined {
  const calls = state.recordCalls?.[taskId];
  const times = [calls?.last.at, calls?.carried?.at].filter((at): at is number => typeof at === "number" && Number.isFinite(at));
  return times.length > 0 ? new Date(Math.max(...times)) : undefined;
}

/**
 * The session state files written since `oldest` (a task's calls all come before its file's
 * last write, so an older file has no recent task and is not parsed: the panel reads this at
 * every turn), read without changing them. A file that does not parse, has another schema
 * version or belongs to another session than its name says (copied from elsewhere) is named
 * in `problems` and skipped.
 */
async function readSessions(options: {
  stateDir: string;
  problems: string[];
  oldest: number;
  except: string | undefined;
}): Promise<{ sessions: Array<{ sessionID: string; modified: Date; state: SessionState }>; olderSessions: number }> {
  const { stateDir, problems, oldest } = options;
  let names: string[];
  try {
    names = await readdir(join(stateDir, "sessions"));
  } catch {
    return { sessions: [], olderSessions: 0 };
  }
  let olderSessions = 0;
  const read = await Promise.all(
    names
      .filter((name) => /^[A-Za-z0-9_-]+\.json$/.test(name) && name !== `${options.except}.json`)
      .sort()
      .map(async (name) => {
        const sessionID = name.slice(0, -".json".length);
        const file = sessionStateFile(stateDir, sessionID);
        const info = await stat(file.path).catch(() => undefined);
        if (!info) return [];
        if (info.mtimeMs < oldest) {
          olderSessions += 1;
          return [];
        }
        const peeked = await file.peek().catch((error: unknown) => ({ status: "error" as const, error }));
        if (peeked.status === "loaded") {
          if (peeked.value.sessionID !== sessionID) {
            problems.push(`${file.path}: holds session ${peeked.value.sessionID}, not ${sessionID} (copied from elsewhere?); skipped`);
            return [];
          }
          return [{ sessionID, modified: info.mtime, state: peeked.value }];
        }
        if (peeked.status === "unreadable") problems.push(`${file.path}: ${peeked.reason}; skipped`);
        if (peeked.status === "error") problems.push(`${file.path}: cannot be read (${String(peeked.error)}); skipped`);
        return [];
      }),
  );
  return { sessions: read.flat(), olderSessions };
}

/**
 * What a session may resume and `/rcm resume` lists: the other sessions' unfinished tasks within
 * the resume options' bounds, those another session took among them (shown as taken).
 */
export async function earlierSessionsTasks(options: {
  stateDir: string;
  sessionID: string;
  resume: { maxAgeDays: number; maxTasks: number };
  now: Date;
}): Promise<UnfinishedTask[]> {
  const { stateDir, sessionID, resume, now } = options;
  const listed = await unfinishedTasks({ stateDir, now, maxAgeDays: resume.maxAgeDays, maxTasks: resume.maxTasks, exceptSession: sessionID, withTaken: true });
  return listed.tasks;
}
