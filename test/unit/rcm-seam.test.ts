import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { createRcm, type Rcm } from "../../src/plugin/handlers/rcm.js";
import { createLiveSessions, type LiveSessions } from "../../src/plugin/sessions/session-store.js";
import { postIntent, sessionInboxDir } from "../../src/plugin/store/session-inbox.js";
import { type SessionState, sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { unfinishedTasks } from "../../src/plugin/store/unfinished-tasks.js";
import { type FakeHost, fakeHost } from "../support/fake-host.js";
import { loadFixture, mainSession } from "../support/fixtures.js";
import { makeTempDir } from "../support/temp-dir.js";

// The seam between a host and the plug-in: createRcm built from a fake host, each handler it
// returns driven as a host drives it, on a recorded OpenCode session (two tasks: A, B, A again).
const fixture = loadFixture("two-tasks-with-tool-error");
const main = mainSession("two-tasks-with-tool-error");
const SESSION = main[0]?.info.sessionID ?? "";
const [REQUEST_A, REQUEST_B, REQUEST_A_AGAIN] = main.filter((message) => message.info.role === "user").map((message) => message.info.id);

let dir: { path: string; remove: () => Promise<void> };
let stateDir: string;
beforeEach(async () => {
  dir = await makeTempDir("rcm-seam");
  stateDir = join(dir.path, "state");
  await mkdir(join(dir.path, "project"));
});
afterEach(() => dir.remove());

async function started(mode: "router" | "full", options: Record<string, unknown> = {}): Promise<{ rcm: Rcm; host: FakeHost; sessions: LiveSessions }> {
  const host = fakeHost({ directory: join(dir.path, "project"), sessions: { [SESSION]: { messages: main } } });
  // The cache of live sessions, passed in to look inside.
  const sessions = createLiveSessions();
  const rcm = await createRcm({ host, rawOptions: { mode, stateDir, ...options }, env: {}, home: join(dir.path, "home"), sessions });
  return { rcm, host, sessions };
}

/** What a model call sends: a copy of the recorded call (the plug-in changes it in place). */
function call(index: number): MessageWithParts[] {
  return structuredClone(fixture.transformCalls[index] ?? []);
}

/** Drives the recorded turns up to call `until` (exclusive) as a host does: each new request routed before its calls, each earlier turn ended. */
async function replay(rcm: Rcm, host: FakeHost, until = fixture.transformCalls.length): Promise<MessageWithParts[][]> {
  const sent: MessageWithParts[][] = [];
  let request: string | undefined;
  for (let index = 0; index < until; index += 1) {
    const messages = call(index);
    const user = messages.findLast((message) => message.info.role === "user");
    if (user && user.info.id !== request) {
      if (request !== undefined) await rcm.turnEnded(SESSION);
      request = user.info.id;
      host.source.upTo(request);
      await rcm.request({ sessionID: SESSION, messageID: request, parts: user.parts, moveCommand: "/rcm-text move" });
    }
    await rcm.modelCall(messages);
    sent.push(messages);
  }
  return sent;
}

async function stateOnDisk(): Promise<SessionState> {
  const loaded = await sessionStateFile(stateDir, SESSION).load();
  return loaded.value;
}

/** Polls the state file until `done` holds (a memory update runs in the background after a turn). */
async function waitForState(done: (state: SessionState) => boolean): Promise<SessionState> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const state = await stateOnDisk();
    if (done(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the state never reached the expected shape");
}

const ids = (messages: readonly MessageWithParts[]) => messages.map((message) => message.info.id);
const taskOf = (state: SessionState, messageID: string | undefined) => state.ledger.decisions[messageID ?? ""]?.task;

describe("createRcm through a host", () => {
  it("hands the host its handlers only, and what its own parts need through the port", async () => {
    const { rcm, host } = await started("full");
    expect(Object.keys(rcm).sort()).toEqual(
      ["command", "compacting", "intentsAnnounced", "modelCall", "request", "sessionDeleted", "stepUpdated", "tools", "turnEnded"].sort(),
    );
    // The lexical router and the extractive updater ask no model: no hidden agent for the host to offer.
    expect(host.plugin).toEqual({ stateDir, routes: true, usesHostModels: false, debug: false });
  });

  it("logs a turn end that fails, and never throws it at the host", async () => {
    const { rcm, host } = await started("router");
    await replay(rcm, host);
    // The state file cannot be replaced: a directory with something in it stands in its place.
    const path = sessionStatePath(stateDir, SESSION);
    await rm(path);
    await mkdir(join(path, "blocked"), { recursive: true });
    await expect(rcm.turnEnded(SESSION)).resolves.toBeUndefined();
    expect(host.lines.filter((line) => line.level === "error").map((line) => line.message)).toEqual([
      "turn end failed; the session's state is written at its next step",
    ]);
  });

  it("routes each request and narrows the next request's calls to its task", async () => {
    const { rcm, host } = await started("router");
    const sent = await replay(rcm, host);
    const state = await stateOnDisk();
    expect([taskOf(state, REQUEST_A), taskOf(state, REQUEST_B), taskOf(state, REQUEST_A_AGAIN)]).toEqual(["t1", "t2", "t1"]);
    // The last call answers task A again: task B's exchange is left out, the rest is as sent.
    const last = sent.at(-1) ?? [];
    const recorded = fixture.transformCalls.at(-1) ?? [];
    const taskB = recorded.filter((message) => message.info.id === REQUEST_B || (message.info.role === "assistant" && message.info.parentID === REQUEST_B));
    expect(taskB.length).toBeGreaterThan(0);
    expect(ids(last)).toEqual(ids(recorded).filter((id) => !ids(taskB).includes(id)));
    // The same history assembles to the same bytes at the next call.
    const again = call(fixture.transformCalls.length - 1);
    await rcm.modelCall(again);
    expect(JSON.stringify(again)).toBe(JSON.stringify(last));
    // The second task opened with a toast (notify defaults to toasts).
    expect(host.toasts.length).toBeGreaterThan(0);
  });

  it("writes each task's record after its turn ends, and puts the records in place of what they cover in the compaction", async () => {
    const { rcm, host } = await started("full");
    await replay(rcm, host);
    await rcm.turnEnded(SESSION);
    const state = await waitForState((candidate) => candidate.records["t1"] !== undefined && candidate.records["t2"] !== undefined);
    expect(state.memoryUpdates.every((update) => update.ok)).toBe(true);
    const keep = await rcm.compacting(SESSION);
    expect(keep).toContain("t1");
    expect(keep).toContain("t2");
    // The compaction's call (the clone OpenCode summarizes) is not narrowed: task B's request is still in it.
    const clone = call(fixture.transformCalls.length - 1);
    await rcm.modelCall(clone);
    const text = JSON.stringify(clone);
    expect(text).toContain("CHANGELOG");
    // Only that one call: the next is narrowed to task A again.
    const next = call(fixture.transformCalls.length - 1);
    await rcm.modelCall(next);
    expect(ids(next)).not.toContain(REQUEST_B);
  });

  it("answers /rcm-text, the tasks tool and the recall tool from the session's state", async () => {
    const { rcm, host } = await started("full");
    await replay(rcm, host);
    await rcm.request({
      sessionID: SESSION,
      messageID: REQUEST_A_AGAIN ?? "",
      parts: [],
      model: { providerID: "p", modelID: "m" },
      agent: "build",
      moveCommand: "",
    });
    const status = await rcm.command(SESSION, "status");
    expect(status.text).toContain("t2");
    // With the session's latest model and agent, for a host that stores the answer as a message.
    expect(status).toMatchObject({ model: { providerID: "p", modelID: "m" }, agent: "build" });
    // A mistyped verb: the answer says so, nothing is thrown at the host.
    expect((await rcm.command(SESSION, "mvoe 3 t1")).text).toMatch(/^opencode-rcm: unknown \/rcm-text command "mvoe"/);
    const { tasks, recall } = rcm.tools;
    expect(await tasks?.({ sessionID: SESSION, action: "list" })).toContain("t1");
    // Task B's history is hidden from task A's calls: the recall tool reads it back.
    const recalled = await recall?.({ sessionID: SESSION, messageID: REQUEST_A_AGAIN ?? "", task: "t2" });
    expect(recalled).toContain("CHANGELOG");
    expect((await stateOnDisk()).ledger.decisions[REQUEST_A_AGAIN ?? ""]?.recalled).toEqual([{ task: "t2", exchanges: 1 }]);
  });

  it("splits a task out into a session the host opens, on /rcm-text split", async () => {
    const { rcm, host } = await started("router");
    await replay(rcm, host);
    await rcm.turnEnded(SESSION);
    const { text: answer } = await rcm.command(SESSION, "split t2");
    expect(answer).toContain("ses_split1");
    expect(host.opened).toHaveLength(1);
    expect(host.opened[0]?.seed?.text).toContain("CHANGELOG");
    expect((await stateOnDisk()).ledger.tasks.find((task) => task.id === "t2")?.split?.session).toBe("ses_split1");
  });

  it("applies a move the TUI or the CLI left in the inbox through the same verbs as /rcm-text, and drops one that is stale", async () => {
    const { rcm, host } = await started("router");
    await replay(rcm, host);
    await rcm.turnEnded(SESSION);
    const request = REQUEST_A_AGAIN ?? "";
    // Picked while the request was in t2 (it never was): moot.
    await postIntent(stateDir, SESSION, { kind: "move", requests: [{ messageID: request, from: "t2" }], target: { kind: "new" } });
    await postIntent(stateDir, SESSION, { kind: "move", requests: [{ messageID: request, from: "t1" }], target: { kind: "new" } });
    await rcm.intentsAnnounced();
    const state = await stateOnDisk();
    expect(taskOf(state, request)).toBe("t3");
    expect(state.ledger.decisions[request]?.reason).toContain("user");
    expect(host.lines.map((line) => line.message)).toContain("dropped move from the TUI or CLI: the requests were never routed here, or moved since");
    // The next call is the new task's: neither earlier task's exchanges.
    const next = call(fixture.transformCalls.length - 1);
    await rcm.modelCall(next);
    expect(ids(next)).not.toContain(REQUEST_A);
    expect(ids(next)).not.toContain(REQUEST_B);
  });

  it("applies what the TUI or the CLI left in the inbox as soon as it is announced", async () => {
    const { rcm, host } = await started("router");
    await replay(rcm, host);
    await rcm.turnEnded(SESSION);
    await postIntent(stateDir, SESSION, { kind: "off" });
    await rcm.intentsAnnounced();
    expect((await stateOnDisk()).off).toBe(true);
    // Off: the model gets the native history.
    const native = call(fixture.transformCalls.length - 1);
    await rcm.modelCall(native);
    expect(ids(native)).toEqual(ids(fixture.transformCalls.at(-1) ?? []));
  });

  it.each([
    { keep: false, listed: [] },
    { keep: true, listed: ["t1", "t2"] },
  ])("a deleted session's tasks are listed no more unless resume.keepDeletedSessions is $keep", async ({ keep, listed }) => {
    const { rcm, host } = await started("full", { resume: { keepDeletedSessions: keep } });
    await replay(rcm, host);
    await rcm.turnEnded(SESSION);
    const unfinished = async () =>
      (await unfinishedTasks({ stateDir, now: new Date(), maxAgeDays: undefined, maxTasks: undefined })).tasks.map((task) => task.taskId).sort();
    expect(await unfinished()).toEqual(["t1", "t2"]);
    rcm.sessionDeleted(SESSION);
    // Marked in the background; the state file stays.
    await expect.poll(unfinished).toEqual(listed);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await unfinished()).toEqual(listed);
    await expect(stat(sessionStatePath(stateDir, SESSION))).resolves.toBeDefined();
  });

  it("forgets a deleted session whole, in one call: its state is read from disk again at its next call", async () => {
    const { rcm, host, sessions } = await started("full");
    await replay(rcm, host);
    await rcm.turnEnded(SESSION);
    // One object held everything: the state, the routing index, the groups, their sizes.
    const live = sessions.peek(SESSION);
    expect(live?.stored).toBeDefined();
    expect(live?.routing?.seen.length).toBeGreaterThan(0);
    expect(live?.groups?.groups.length).toBe(3);
    expect(live?.groupTokens.size).toBeGreaterThan(0);
    await postIntent(stateDir, SESSION, { kind: "on" });
    rcm.sessionDeleted(SESSION);
    expect(sessions.peek(SESSION)).toBeUndefined();
    // Its inbox goes too (removed in the background).
    await expect
      .poll(() =>
        stat(sessionInboxDir(stateDir, SESSION)).then(
          () => "there",
          () => "gone",
        ),
      )
      .toBe("gone");
    // Switched off on disk behind the server's back: only a server that forgot the session reads it.
    await sessionStateFile(stateDir, SESSION).save({ ...(await stateOnDisk()), off: true });
    const next = call(fixture.transformCalls.length - 1);
    await rcm.modelCall(next);
    expect(ids(next)).toContain(REQUEST_B);
  });

  it("feeds a turn's ended step to the memory, which then reads no history from the host", async () => {
    const { rcm, host } = await started("full");
    await replay(rcm, host);
    const ended = main.at(-1);
    if (ended?.info.role !== "assistant") throw new Error("the fixture ends with an assistant step");
    rcm.stepUpdated(ended.info);
    await rcm.turnEnded(SESSION);
    const state = await waitForState((candidate) => candidate.records["t1"]?.coverage.groups.includes(REQUEST_A_AGAIN ?? "") === true);
    expect(state.memoryUpdates.at(-1)).toMatchObject({ task: "t1", read: "view" });
  });

  it("leaves the messages untouched when the state directory cannot be used", async () => {
    const { rcm, host } = await started("router");
    await rm(stateDir, { recursive: true, force: true });
    // A file where the state directory should be: nothing can be read or written.
    await writeFile(stateDir, "not a directory");
    const messages = call(3);
    host.source.upTo(REQUEST_B ?? "");
    const user = messages.findLast((message) => message.info.role === "user");
    await rcm.request({ sessionID: SESSION, messageID: REQUEST_B ?? "", parts: user?.parts ?? [], moveCommand: "/rcm-text move" });
    await rcm.modelCall(messages);
    expect(JSON.stringify(messages)).toBe(JSON.stringify(call(3)));
    expect(host.lines.some((line) => line.level === "error")).toBe(true);
  });
});
