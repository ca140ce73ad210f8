import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { createRcm, type Rcm } from "../../src/plugin/handlers/rcm.js";
import { type SessionState, sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { markTask, readTaskMarks } from "../../src/plugin/store/task-marks.js";
import { unfinishedTasks } from "../../src/plugin/store/unfinished-tasks.js";
import { type FakeHost, fakeHost } from "../support/fake-host.js";
import { loadFixture, mainSession } from "../support/fixtures.js";
import { makeTempDir } from "../support/temp-dir.js";

// Resuming an earlier session's task, through the seam: session A (a recorded OpenCode session:
// slugify, a changelog, slugify again) ends; new sessions of the project name one of its tasks, or not.
const fixture = loadFixture("two-tasks-with-tool-error");
const main = mainSession("two-tasks-with-tool-error");
const SESSION_A = main[0]?.info.sessionID ?? "";
const firstUser = main.find((message) => message.info.role === "user") as MessageWithParts;

/** A new session's first request, modelled on a recorded user message. */
function request(sessionID: string, id: string, text: string): MessageWithParts {
  const info = { ...firstUser.info, id, sessionID } as MessageWithParts["info"];
  return { info, parts: [{ id: `${id}-text`, sessionID, messageID: id, type: "text", text }] } as MessageWithParts;
}

const B = "ses_resumeB";
const C = "ses_resumeC";
const D = "ses_resumeD";
const backToSlugify = request(B, "msg_b1", "Back to slugify in textkit/slugify.py: also collapse repeated dashes.");
const unrelated = request(C, "msg_c1", "Add a docs/install.md page that explains installing with pipx.");
const alsoSlugify = request(D, "msg_d1", "Back to slugify in textkit/slugify.py: strip leading dashes too.");

let dir: { path: string; remove: () => Promise<void> };
let stateDir: string;
beforeEach(async () => {
  dir = await makeTempDir("rcm-resume");
  stateDir = join(dir.path, "state");
  await mkdir(join(dir.path, "project"));
});
afterEach(() => dir.remove());

async function started(mode: "full" | "memory" | "router"): Promise<{ rcm: Rcm; host: FakeHost }> {
  const host = fakeHost({
    directory: join(dir.path, "project"),
    sessions: { [SESSION_A]: { messages: main }, [B]: { messages: [backToSlugify] }, [C]: { messages: [unrelated] }, [D]: { messages: [alsoSlugify] } },
  });
  const rcm = await createRcm({ host, rawOptions: { mode, stateDir }, env: {}, home: join(dir.path, "home") });
  return { rcm, host };
}

/** Session A as recorded, every turn ended and its records written. */
async function sessionA(rcm: Rcm, host: FakeHost, records = true): Promise<SessionState> {
  let current: string | undefined;
  for (const recorded of fixture.transformCalls) {
    const messages = structuredClone(recorded);
    const user = messages.findLast((message) => message.info.role === "user");
    if (user && user.info.id !== current) {
      if (current !== undefined) await rcm.turnEnded(SESSION_A);
      current = user.info.id;
      host.source.upTo(current);
      await rcm.request({ sessionID: SESSION_A, messageID: current, parts: user.parts, moveCommand: "/rcm-text move" });
    }
    await rcm.modelCall(messages);
  }
  host.source.upTo("every turn over");
  await rcm.turnEnded(SESSION_A);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const state = (await sessionStateFile(stateDir, SESSION_A).load()).value;
    // Every request of t1 (the last one too) in its record.
    if (!records || (state.records.t1?.coverage.groups.length === 2 && state.records.t2)) return state;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("session A's records were never written");
}

/** The first model call of a new session's first request: what the model got. */
async function firstCall(rcm: Rcm, message: MessageWithParts): Promise<string> {
  await rcm.request({ sessionID: message.info.sessionID, messageID: message.info.id, parts: message.parts, moveCommand: "/rcm-text move" });
  const messages = [structuredClone(message)];
  await rcm.modelCall(messages);
  await rcm.turnEnded(message.info.sessionID);
  return messages.flatMap((sent) => sent.parts.map((part) => (part.type === "text" ? part.text : ""))).join("\n---\n");
}

describe("a task of an earlier session", () => {
  it("is resumed by a request that names it: the first call carries its record, and nothing of the other task", async () => {
    const { rcm, host } = await started("full");
    const a = await sessionA(rcm, host);
    const sent = await firstCall(rcm, backToSlugify);
    const state = (await sessionStateFile(stateDir, B).load()).value;
    const task = state.ledger.tasks[0];
    expect(task).toMatchObject({ id: "t1", resumed: { session: SESSION_A, task: "t1", by: "router" } });
    expect(state.ledger.decisions.msg_b1).toMatchObject({ task: "t1", opened: true });
    expect(state.resumed?.t1?.records).toEqual([a.records.t1]);
    expect(sent).toContain("goes on from an earlier session");
    expect(sent).toMatch(/unicode/i);
    expect(sent).not.toMatch(/CHANGELOG/i);
    expect(state.lastCall?.resumed).toEqual(["t1"]);
    // Taken: no other session lists it or resumes it.
    expect((await readTaskMarks(stateDir)).marks[`${SESSION_A}/t1`]).toMatchObject({ mark: "resumed", by: `${B}/t1` });
    const listed = await unfinishedTasks({ stateDir, now: new Date(), maxAgeDays: 14, maxTasks: 20, exceptSession: D });
    expect(listed.tasks.map((entry) => `${entry.sessionID}/${entry.taskId}`).sort()).toEqual([`${SESSION_A}/t2`, `${B}/t1`].sort());
  });

  it("lets the model recall its exchanges in the earlier session (rcm_recall), redacted, newest first", async () => {
    const { rcm, host } = await started("full");
    await sessionA(rcm, host);
    await firstCall(rcm, backToSlugify);
    const answer = await rcm.tools.recall?.({ sessionID: B, messageID: "msg_b1_answer", task: "t1" });
    expect(answer).toMatch(/^t1 was resumed from an earlier session \(.*as t1 there\); its exchanges there:/);
    expect(answer).toContain("keep unicode letters");
    expect(answer).not.toMatch(/CHANGELOG/);
    expect(answer?.indexOf("keep unicode letters")).toBeLessThan(answer?.indexOf("lowercases and joins") ?? -1);
  });

  it("is not resumed once marked done, nor is its unfinished neighbour for a request about it", async () => {
    const { rcm, host } = await started("full");
    await sessionA(rcm, host);
    await markTask(stateDir, { sessionID: SESSION_A, taskId: "t1", mark: "done", at: new Date() });
    await firstCall(rcm, backToSlugify);
    const state = (await sessionStateFile(stateDir, B).load()).value;
    expect(state.ledger.tasks.map((task) => task.resumed)).toEqual([undefined]);
  });

  it("is not resumed while the marks file cannot be read: the request is routed in its session, the problem logged, the file left as it is", async () => {
    const { rcm, host } = await started("full");
    await sessionA(rcm, host);
    const marks = join(stateDir, "task-marks.json");
    await writeFile(marks, "{ torn");
    await firstCall(rcm, backToSlugify);
    const state = (await sessionStateFile(stateDir, B).load()).value;
    expect(state.ledger.tasks.map((task) => [task.id, task.resumed])).toEqual([["t1", undefined]]);
    expect(host.lines.some((line) => line.level === "warn" && /could not consider earlier sessions' tasks: .*task-marks\.json/.test(line.message))).toBe(true);
    await expect(readFile(marks, "utf8")).resolves.toBe("{ torn");
  });

  it("is not brought in by an unrelated request", async () => {
    const { rcm, host } = await started("full");
    await sessionA(rcm, host);
    const sent = await firstCall(rcm, unrelated);
    const state = (await sessionStateFile(stateDir, C).load()).value;
    expect(state.ledger.tasks[0]?.resumed).toBeUndefined();
    expect(state.resumed).toBeUndefined();
    expect(sent).toBe(unrelated.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n---\n"));
  });

  it("is resumed once: a second session naming it is not given it again", async () => {
    const { rcm, host } = await started("memory");
    await sessionA(rcm, host);
    await firstCall(rcm, backToSlugify);
    await firstCall(rcm, alsoSlugify);
    const d = (await sessionStateFile(stateDir, D).load()).value;
    // D sees B's t1 now (resumed there), not A's: B's own evidence there is its one request.
    expect(d.ledger.tasks[0]?.resumed?.session).not.toBe(SESSION_A);
  });

  it("is looked for past a torn state file, which is logged once and left as it is", async () => {
    const { rcm, host } = await started("full");
    await sessionA(rcm, host);
    const torn = join(stateDir, "sessions", "ses_torn.json");
    await writeFile(torn, '{"version":4,"data":{"sessionID":"ses_to');
    await firstCall(rcm, backToSlugify);
    await firstCall(rcm, unrelated);
    const warned = host.lines.filter((line) => line.level === "warn" && line.message.includes("ses_torn.json"));
    expect(warned).toHaveLength(1);
    expect(warned[0]?.message).toMatch(/earlier sessions' tasks: .*ses_torn\.json: not JSON/);
    await expect(readFile(torn, "utf8")).resolves.toBe('{"version":4,"data":{"sessionID":"ses_to');
    expect((await sessionStateFile(stateDir, B).load()).value.ledger.tasks[0]?.resumed?.session).toBe(SESSION_A);
  });

  it("is never resumed in mode router (no record to bring)", async () => {
    const { rcm, host } = await started("router");
    await sessionA(rcm, host, false);
    await firstCall(rcm, backToSlugify);
    const state = (await sessionStateFile(stateDir, B).load()).value;
    expect(state.ledger.tasks[0]?.resumed).toBeUndefined();
  });
});

describe("/rcm-text resume, done and drop", () => {
  it("lists the earlier tasks numbered, resumes one by its number, shows it taken to another session, and marks one done", async () => {
    const { rcm, host } = await started("full");
    await sessionA(rcm, host);
    const listed = (await rcm.command(C, "resume")).text;
    expect(listed).toMatch(/^Unfinished tasks of earlier sessions \(most recently active first; \/rcm-text resume <n> resumes one here\):/);
    expect(listed).toContain(`[${SESSION_A}/t1]`);
    expect(listed).toContain(`[${SESSION_A}/t2]`);
    const number = listed.split("\n").findIndex((line) => line.endsWith(`[${SESSION_A}/t1]`));
    const resumed = (await rcm.command(C, `resume ${number}`)).text;
    expect(resumed).toMatch(/^Resumed t1 ".*" from session ses_\w+ \(\d+ (min|h|days) ago, \d+ pending\): its record goes with the next request here\.$/);
    const c = (await sessionStateFile(stateDir, C).load()).value;
    expect(c.ledger.tasks[0]).toMatchObject({ id: "t1", resumed: { session: SESSION_A, task: "t1", by: "user" } });
    // Another session sees it taken, and cannot take it.
    expect((await rcm.command(D, "resume")).text).toContain(`taken by ${C}/t1  [${SESSION_A}/t1]`);
    expect((await rcm.command(D, `resume ${SESSION_A}/t1`)).text).toContain("is taken");
    // Done: the earlier session's other task, by <session>/<task>; then no session lists it.
    expect((await rcm.command(D, `done ${SESSION_A}/t2`)).text).toMatch(/^t2 ".*" of ses_\w+ is marked done: no session offers to resume it any more\.$/);
    expect((await readTaskMarks(stateDir)).marks[`${SESSION_A}/t2`]).toMatchObject({ mark: "done" });
    expect((await rcm.command(D, "resume")).text).not.toContain(`[${SESSION_A}/t2]`);
  });

  it("says plainly that resuming needs memory in mode router", async () => {
    const { rcm } = await started("router");
    expect((await rcm.command(B, "resume")).text).toMatch(/^Resuming a task of an earlier session needs modes memory or full/);
  });
});
