import { mkdir, open, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { sessionStateFile } from "./session-state-file.js";
import { versionedJsonFile } from "./versioned-json-file.js";

/**
 * `<stateDir>/task-marks.json`: the tasks of earlier sessions a person marked done or dropped,
 * keyed `<sessionID>/<taskId>`. Apart from the session state files, which a running server
 * owns and rewrites at every request: marking a task never writes them.
 */
/**
 * `deleted`: its session was deleted in OpenCode (`resume.keepDeletedSessions` off);
 * `resumed`: another session took it up (`by` names that session and its task there).
 */
const TASK_MARKS = ["done", "dropped", "deleted", "resumed"] as const;
export type TaskMarkKind = (typeof TASK_MARKS)[number];

const TaskMarksSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_-]+\/[^/\s]+$/),
  z.object({ mark: z.enum(TASK_MARKS), at: z.iso.datetime(), by: z.string().min(1).optional() }),
);
export type TaskMarks = z.infer<typeof TaskMarksSchema>;

const TASK_MARKS_VERSION = 1;
/** A lock older than this was left by a process that died mid-write: a write takes milliseconds. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for another one before giving up with an error naming the lock. */
const LOCK_WAIT_MS = 5_000;

function taskMarksFile(stateDir: string) {
  return versionedJsonFile({ path: join(stateDir, "task-marks.json"), version: TASK_MARKS_VERSION, schema: TaskMarksSchema, empty: () => ({}) });
}

/** The key of one task of one session. */
export function taskKey(sessionID: string, taskId: string): string {
  return `${sessionID}/${taskId}`;
}

/** The marks, or why the file cannot be read (it is left as it is: nothing marked is lost). */
export async function readTaskMarks(stateDir: string): Promise<{ marks: TaskMarks; problem?: string }> {
  const file = taskMarksFile(stateDir);
  const read = await file.peek();
  if (read.status === "loaded") return { marks: read.value };
  if (read.status === "missing") return { marks: {} };
  return { marks: {}, problem: `${file.path}: ${read.reason}` };
}

/**
 * Marks one task done or dropped. Read, merged and replaced under a lock file, so two
 * processes marking at the same moment both keep their mark. An unreadable marks file is an
 * error, never overwritten.
 */
export async function markTask(stateDir: string, mark: TaskMark): Promise<void> {
  await markTasks(stateDir, [mark]);
}

interface TaskMark {
  sessionID: string;
  taskId: string;
  mark: TaskMarkKind;
  at: Date;
  by?: string | undefined;
}

/**
 * A session takes up an earlier session's task: marked `resumed` by it, unless it is marked
 * already (done, dropped, or taken by another session at the same moment: two TUIs of one
 * project never both resume it). Returns how it is marked when it was.
 */
export async function claimTask(stateDir: string, claim: { sessionID: string; taskId: string; by: string; at: Date }): Promise<TaskMarks[string] | undefined> {
  const file = taskMarksFile(stateDir);
  await mkdir(stateDir, { recursive: true });
  return withLock(`${file.path}.lock`, async () => {
    const read = await file.peek();
    if (read.status === "unreadable")
      throw new RcmError("session", `${file.path}: ${read.reason}; it is left as it is (move it aside to start the marks afresh)`);
    const marks = { ...(read.status === "loaded" ? read.value : {}) };
    const key = taskKey(claim.sessionID, claim.taskId);
    const known = marks[key];
    if (known) return known;
    marks[key] = { mark: "resumed", at: claim.at.toISOString(), by: claim.by };
    await file.save(marks);
    return undefined;
  });
}

/** Several marks in one write (one lock): all of them or, on an error, none. */
async function markTasks(stateDir: string, added: readonly TaskMark[]): Promise<void> {
  if (added.length === 0) return;
  const file = taskMarksFile(stateDir);
  await mkdir(stateDir, { recursive: true });
  await withLock(`${file.path}.lock`, async () => {
    const read = await file.peek();
    if (read.status === "unreadable") {
      throw new RcmError("session", `${file.path}: ${read.reason}; it is left as it is (move it aside to start the marks afresh)`);
    }
    const marks = { ...(read.status === "loaded" ? read.value : {}) };
    for (const mark of added) marks[taskKey(mark.sessionID, mark.taskId)] = { mark: mark.mark, at: mark.at.toISOString(), ...(mark.by ? { by: mark.by } : {}) };
    await file.save(marks);
  });
}

/**
 * A session deleted in OpenCode: its tasks not yet marked are marked `deleted`, so no list of
 * unfinished tasks shows them again. Its state file stays as it was (the CLI can still read it).
 */
export async function markDeletedSession(stateDir: string, sessionID: string, at: Date): Promise<void> {
  const read = await sessionStateFile(stateDir, sessionID).peek();
  if (read.status !== "loaded") return;
  const { marks } = await readTaskMarks(stateDir);
  const open = read.value.ledger.tasks.filter((task) => !task.split && marks[taskKey(sessionID, task.id)] === undefined);
  await markTasks(
    stateDir,
    open.map((task) => ({ sessionID, taskId: task.id, mark: "deleted", at })),
  );
}

async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(lock, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if (!(typeof error === "object" && error !== null && "code" in error && error.code === "EEXIST")) throw error;
      const info = await stat(lock).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) await rm(lock, { force: true });
      else if (Date.now() - started > LOCK_WAIT_MS) throw new RcmError("session", `${lock} is held by another opencode-rcm process; try again`);
      else await sleep(5 + Math.random() * 20);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
