import { mkdir, open, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { versionedJsonFile } from "./versioned-json-file.js";

/**
 * `<stateDir>/task-marks.json`: the tasks of earlier sessions a person marked done or dropped,
 * keyed `<sessionID>/<taskId>`. Apart from the session state files, which a running server
 * owns and rewrites at every request: marking a task never writes them.
 */
const TASK_MARKS = ["done", "dropped"] as const;
export type TaskMarkKind = (typeof TASK_MARKS)[number];

const TaskMarksSchema = z.record(z.string().regex(/^[A-Za-z0-9_-]+\/[^/\s]+$/), z.object({ mark: z.enum(TASK_MARKS), at: z.iso.datetime() }));
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
export async function markTask(stateDir: string, mark: { sessionID: string; taskId: string; mark: TaskMarkKind; at: Date }): Promise<void> {
  const file = taskMarksFile(stateDir);
  await mkdir(stateDir, { recursive: true });
  await withLock(`${file.path}.lock`, async () => {
    const read = await file.peek();
    if (read.status === "unreadable") {
      throw new RcmError("session", `${file.path}: ${read.reason}; it is left as it is (move it aside to start the marks afresh)`);
    }
    const marks = read.status === "loaded" ? read.value : {};
    await file.save({ ...marks, [taskKey(mark.sessionID, mark.taskId)]: { mark: mark.mark, at: mark.at.toISOString() } });
  });
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
