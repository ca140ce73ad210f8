import { cp, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { readSession } from "../../src/plugin/store/locate-state.js";
import { type SessionState, sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { noteSessionTitle } from "../../src/plugin/store/session-titles.js";
import { markTask, readTaskMarks } from "../../src/plugin/store/task-marks.js";
import { unfinishedTasks } from "../../src/plugin/store/unfinished-tasks.js";
import { makeTempDir } from "../support/temp-dir.js";

// The CLI corpus's recorded state: three sessions the session store wrote from recorded histories.
const CORPUS = join(import.meta.dirname, "../../fixtures/cli-corpus/state");
const SLOW_SUITE = "ses_dd631d439ffetRWE95heTS17Ki"; // t1
const TWO_TASKS = "ses_dd632b3cbffe2RcQvKCoab7xrt"; // t1, t2
const WITH_RECORD = "ses_dd63313beffeTpRHYYhn65jjsF"; // t1 (a record, 1 pending), t2

const NOW = new Date("2026-03-10T12:00:00Z");
const DAY = 86_400_000;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-unfinished");
  await cp(CORPUS, temp.path, { recursive: true });
  // Fixed ages: the slow suite 1 day ago, the two-task session 2 days, the one with a record 3 days.
  for (const [sessionID, days] of [
    [SLOW_SUITE, 1],
    [TWO_TASKS, 2],
    [WITH_RECORD, 3],
  ] as const) {
    const when = new Date(NOW.getTime() - days * DAY);
    await utimes(sessionStateFile(temp.path, sessionID).path, when, when);
  }
});
afterEach(async () => {
  await temp.remove();
});

const unbounded = { maxAgeDays: undefined, maxTasks: undefined };

async function rewrite(sessionID: string, change: (state: SessionState) => SessionState, days: number): Promise<void> {
  const file = sessionStateFile(temp.path, sessionID);
  const read = await file.peek();
  if (read.status !== "loaded") throw new Error(`${sessionID} did not load`);
  await file.save(change(read.value));
  const when = new Date(NOW.getTime() - days * DAY);
  await utimes(file.path, when, when);
}

describe("the project's unfinished tasks", () => {
  it("lists every task of every session, the most recently active first, with its session's title and pending asks", async () => {
    await noteSessionTitle(temp.path, { sessionID: TWO_TASKS, title: "Slugify and changelog", at: NOW });
    const { tasks, beyond, problems } = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded });
    expect(problems).toEqual([]);
    expect(beyond).toBe(0);
    expect(tasks.map((task) => `${task.sessionID}/${task.taskId}`)).toEqual([
      `${SLOW_SUITE}/t1`,
      `${TWO_TASKS}/t1`,
      `${TWO_TASKS}/t2`,
      `${WITH_RECORD}/t1`,
      `${WITH_RECORD}/t2`,
    ]);
    expect(tasks[1]?.sessionTitle).toBe("Slugify and changelog");
    expect(tasks[0]?.sessionTitle).toBeUndefined();
    expect(tasks[3]).toMatchObject({ taskTitle: expect.stringMatching(/^Task A: add textkit\/slugify\.py/), pending: 1, allDone: false });
    expect(tasks[4]).toMatchObject({ pending: 0, allDone: false });
    expect(tasks[3]?.lastActive.toISOString()).toBe(new Date(NOW.getTime() - 3 * DAY).toISOString());
  });

  it("takes a task's last activity from its newest model call, and offers a record with nothing pending as done", async () => {
    const at = NOW.getTime() - 60_000;
    await rewrite(
      WITH_RECORD,
      (state) => {
        const record = state.records.t1;
        if (!record) throw new Error("the corpus session has a record for t1");
        const use = { task: "t1", covers: 2, replaced: 0, verbatim: 2, shown: true, at };
        return { ...state, records: { t1: { ...record, pending: [], workedOn: [] } }, recordCalls: { t1: { last: use } } };
      },
      3,
    );
    const { tasks } = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded });
    expect(tasks[0]).toMatchObject({ sessionID: WITH_RECORD, taskId: "t1", pending: 0, allDone: true });
    expect(tasks[0]?.lastActive.getTime()).toBe(at);
  });

  it("leaves out the tasks marked done or dropped, split off into another session, or of the session asking", async () => {
    await markTask(temp.path, { sessionID: TWO_TASKS, taskId: "t1", mark: "done", at: NOW });
    await markTask(temp.path, { sessionID: TWO_TASKS, taskId: "t2", mark: "dropped", at: NOW });
    await rewrite(
      WITH_RECORD,
      (state) => ({
        ...state,
        ledger: { ...state.ledger, tasks: state.ledger.tasks.map((task) => (task.id === "t2" ? { ...task, split: { session: "ses_new" } } : task)) },
      }),
      3,
    );
    const { tasks } = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded, exceptSession: SLOW_SUITE });
    expect(tasks.map((task) => `${task.sessionID}/${task.taskId}`)).toEqual([`${WITH_RECORD}/t1`]);
  });

  it("keeps to the age and count bounds, and says how many it left out", async () => {
    const byAge = await unfinishedTasks({ stateDir: temp.path, now: NOW, maxAgeDays: 2, maxTasks: 100 });
    expect(byAge.tasks.map((task) => task.sessionID)).toEqual([SLOW_SUITE, TWO_TASKS, TWO_TASKS]);
    // The session with a record was last written 3 days ago: not even read.
    expect(byAge).toMatchObject({ beyond: 0, olderSessions: 1 });
    const byCount = await unfinishedTasks({ stateDir: temp.path, now: NOW, maxAgeDays: 100, maxTasks: 2 });
    expect(byCount.tasks.map((task) => `${task.sessionID}/${task.taskId}`)).toEqual([`${SLOW_SUITE}/t1`, `${TWO_TASKS}/t1`]);
    expect(byCount).toMatchObject({ beyond: 3, olderSessions: 0 });
    const defaults = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...DEFAULT_OPTIONS.resume });
    expect(defaults.tasks).toHaveLength(5);
  });

  it("names a corrupt, foreign-version or foreign-session state file, skips it and leaves it byte for byte", async () => {
    const dir = join(temp.path, "sessions");
    const corrupt = join(dir, "ses_corrupt.json");
    const future = join(dir, "ses_future.json");
    const foreign = join(dir, "ses_foreign.json");
    const corpusText = await readFile(sessionStateFile(temp.path, TWO_TASKS).path, "utf8");
    const contents = {
      [corrupt]: '{"version":4,"data":{"sessionID":',
      [future]: corpusText.replace('{"version":4,', '{"version":99,'),
      [foreign]: corpusText,
    };
    for (const [path, text] of Object.entries(contents)) await writeFile(path, text);
    const { tasks, problems } = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded });
    expect(tasks).toHaveLength(5);
    expect(problems).toEqual([
      expect.stringMatching(/ses_corrupt\.json: not JSON .*; skipped$/),
      expect.stringMatching(/ses_foreign\.json: holds session ses_dd632b3cbffe2RcQvKCoab7xrt, not ses_foreign .*; skipped$/),
      `${future}: schema version 99, expected 4; skipped`,
    ]);
    for (const [path, text] of Object.entries(contents)) expect(await readFile(path, "utf8")).toBe(text);
  });

  it("reads no marks from a marks file it cannot read, says so, and does not overwrite it when marking", async () => {
    const marksPath = join(temp.path, "task-marks.json");
    await writeFile(marksPath, "not json");
    const { tasks, problems } = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded });
    expect(tasks).toHaveLength(5);
    expect(problems).toEqual([expect.stringMatching(/task-marks\.json: not JSON .*\(no task counts as marked\)$/)]);
    await expect(markTask(temp.path, { sessionID: TWO_TASKS, taskId: "t1", mark: "done", at: NOW })).rejects.toThrow(/task-marks\.json: not JSON/);
    expect(await readFile(marksPath, "utf8")).toBe("not json");
  });
});

describe("what the TUI's panel reads", () => {
  it("counts the unfinished tasks of the other sessions, within the bounds, and none unless asked", async () => {
    // The corpus's files are dated days before NOW; the panel counts from the clock's now.
    const now = new Date();
    for (const sessionID of [SLOW_SUITE, TWO_TASKS, WITH_RECORD]) await utimes(sessionStateFile(temp.path, sessionID).path, now, now);
    expect((await readSession(temp.path, TWO_TASKS, DEFAULT_OPTIONS.resume)).earlierUnfinished).toBe(3);
    expect((await readSession(temp.path, "ses_new", { maxAgeDays: 14, maxTasks: 2 })).earlierUnfinished).toBe(2);
    expect((await readSession(temp.path, TWO_TASKS)).earlierUnfinished).toBe(0);
    expect((await readSession(temp.path, TWO_TASKS, DEFAULT_OPTIONS.resume)).earlierUnreadable).toBe(0);
    await writeFile(sessionStateFile(temp.path, "ses_torn").path, "{ torn");
    expect((await readSession(temp.path, TWO_TASKS, DEFAULT_OPTIONS.resume)).earlierUnreadable).toBe(1);
  });
});

describe("task marks", () => {
  it("keeps every mark of many writers marking at once", async () => {
    const writes = Array.from({ length: 24 }, (_, index) =>
      markTask(temp.path, { sessionID: `ses_w${index % 4}`, taskId: `t${index}`, mark: index % 2 === 0 ? "done" : "dropped", at: NOW }),
    );
    await Promise.all(writes);
    const { marks, problem } = await readTaskMarks(temp.path);
    expect(problem).toBeUndefined();
    expect(Object.keys(marks)).toHaveLength(24);
    expect(marks["ses_w1/t5"]).toEqual({ mark: "dropped", at: NOW.toISOString() });
  });

  it("takes over a lock left by a process that died mid-write", async () => {
    const lock = join(temp.path, "task-marks.json.lock");
    await writeFile(lock, "12345\n");
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    await markTask(temp.path, { sessionID: TWO_TASKS, taskId: "t1", mark: "done", at: NOW });
    expect((await readTaskMarks(temp.path)).marks[`${TWO_TASKS}/t1`]?.mark).toBe("done");
  });
});

describe("the list /rcm resume numbers", () => {
  it("lists a task another session resumed as taken (never counted as unfinished), and puts a session's task with the later request first on a tie", async () => {
    await markTask(temp.path, { sessionID: SLOW_SUITE, taskId: "t1", mark: "resumed", at: NOW, by: "ses_new/t1" });
    // Without its third request (t1's), WITH_RECORD's t2 got the later one: with no model call times, t2 comes first.
    await rewrite(WITH_RECORD, (state) => ({ ...state, ledger: { ...state.ledger, order: state.ledger.order.slice(0, -1) } }), 3);
    const plain = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded });
    expect(plain.tasks.map((task) => `${task.sessionID}/${task.taskId}`)).not.toContain(`${SLOW_SUITE}/t1`);
    const listed = await unfinishedTasks({ stateDir: temp.path, now: NOW, maxAgeDays: 14, maxTasks: 1, withTaken: true });
    expect(listed.tasks.map((task) => [`${task.sessionID}/${task.taskId}`, task.takenBy])).toEqual([
      [`${SLOW_SUITE}/t1`, "ses_new/t1"],
      [`${TWO_TASKS}/t1`, undefined],
    ]);
    const withRecord = await unfinishedTasks({ stateDir: temp.path, now: NOW, ...unbounded, exceptSession: TWO_TASKS });
    expect(withRecord.tasks.map((task) => `${task.sessionID}/${task.taskId}`)).toEqual([`${WITH_RECORD}/t2`, `${WITH_RECORD}/t1`]);
  });
});
