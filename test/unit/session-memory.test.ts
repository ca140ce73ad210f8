import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { extractiveUpdater } from "../../src/plugin/core/memory/extractive-updater.js";
import type { TaskRecord } from "../../src/plugin/core/memory/record.js";
import type { MemoryUpdateInput, MemoryUpdater } from "../../src/plugin/core/memory/updater.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { createFailOpenGuard } from "../../src/plugin/sessions/fail-open-guard.js";
import { createSessionMemory, type SessionMemory, TAIL_MESSAGES } from "../../src/plugin/sessions/session-memory.js";
import type { SessionRouting } from "../../src/plugin/sessions/session-routing.js";
import type { SessionSource } from "../../src/plugin/sessions/session-source.js";
import type { SessionStore } from "../../src/plugin/sessions/session-store.js";
import { SESSION_STATE_VERSION } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { THRESHOLD } from "../support/defaults.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, storeWithRouting } from "../support/plugin-parts.js";
import { ledgerOf, namedTaskRouter } from "../support/routing.js";
import { makeTempDir } from "../support/temp-dir.js";

// two-tasks-with-tool-error: A (slugify), B (changelog), back to A.
const history = mainSession("two-tasks-with-tool-error");
const sessionID = history[0]?.info.sessionID as string;
const requests = history.filter((message) => message.info.role === "user") as [MessageWithParts, MessageWithParts, MessageWithParts];
const [a1, b1, a2] = requests.map((message) => message.info.id) as [string, string, string];

/** Serves whatever history the test sets, and counts the reads. */
function fakeSource(): SessionSource & { view: MessageWithParts[]; reads: number; tailReads: number } {
  const source = {
    view: history,
    reads: 0,
    tailReads: 0,
    async parentID() {
      return undefined;
    },
    async messages() {
      source.reads += 1;
      return source.view;
    },
    async recentMessages(_id: string, limit: number) {
      source.tailReads += 1;
      return source.view.slice(-limit);
    },
  };
  return source;
}

function textOf(message: MessageWithParts): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/** A further turn of task A after the recorded ones: a request and a final answer. */
function extraTurn(id: string, text: string): MessageWithParts[] {
  const request = structuredClone(requests[2]);
  request.info.id = id;
  request.parts = request.parts.map((part) => (part.type === "text" ? { ...part, id: `prt_${id}`, messageID: id, text } : part));
  const answer = structuredClone(history[history.length - 1] as MessageWithParts);
  answer.info.id = `${id}_answer`;
  if (answer.info.role === "assistant") answer.info.parentID = id;
  answer.parts = answer.parts.map((part) => ({ ...part, id: `${part.id}_${id}`, messageID: answer.info.id }));
  return [request, answer];
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-session-memory");
});
afterEach(async () => {
  await temp.remove();
});

interface Setup {
  source: ReturnType<typeof fakeSource>;
  logger: ReturnType<typeof recordingLogger>;
  store: SessionStore;
  routing: SessionRouting;
  memory(updater: MemoryUpdater, batchTokens?: number): SessionMemory;
  /** Routes a request as the plug-in does: the transform has seen the history before it. */
  route(request: MessageWithParts): Promise<string | undefined>;
  /** The session state file as stored. */
  stored(): Promise<{ version: number; data: { ledger: unknown; records: Record<string, TaskRecord>; memoryUpdates: unknown[] } }>;
}

function setup(): Setup {
  const source = fakeSource();
  const logger = recordingLogger();
  const { store, routing, sessions } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger });
  const guard = createFailOpenGuard(logger);
  return {
    source,
    logger,
    store,
    routing,
    // Batches of 0 unless a test asks: these tests are about what is read and written, not about batching.
    memory: (updater, batchTokens) =>
      createSessionMemory({ sessions, store, source, updater, logger, guard, threshold: THRESHOLD, replaceBatchTokens: batchTokens ?? 0 }),
    async route(request) {
      const full = source.view;
      source.view = full.slice(0, full.indexOf(request));
      await store.step(sessionID, (session) => routing.learn(session, toInteractionGroups(source.view)));
      const routed = await routing.route(sessionID, request.info.id, textOf(request));
      source.view = full;
      return routed?.task.id;
    },
    async stored() {
      return JSON.parse(await readFile(sessionStatePath(temp.path, sessionID), "utf8"));
    },
  };
}

/** The history up to (not including) a message. */
function historyBefore(id: string): MessageWithParts[] {
  return history.slice(
    0,
    history.findIndex((message) => message.info.id === id),
  );
}

/** An updater that delegates to the extractive one, recording its inputs, with switchable behaviour. */
function scriptedUpdater(limits = extractiveUpdater.limits) {
  const calls: MemoryUpdateInput[] = [];
  const updater = {
    name: "extractive" as const,
    limits,
    everyTurn: true,
    mode: "ok" as "ok" | "fail",
    calls,
    async update(input: MemoryUpdateInput) {
      calls.push(input);
      if (updater.mode === "fail") return { ok: false as const, reason: "aux model down" };
      return extractiveUpdater.update(input);
    },
  };
  return updater;
}

/** The records an update writes from a read of the whole history; the temp dir starts afresh after it. */
async function recordsOfAWholeRead(): Promise<Record<string, TaskRecord>> {
  const whole = setup();
  for (const request of requests) await whole.route(request);
  const memory = whole.memory(extractiveUpdater);
  memory.scheduleUpdate(sessionID);
  await memory.settled(sessionID);
  const records = (await whole.stored()).data.records;
  await temp.remove();
  temp = await makeTempDir("rcm-session-memory");
  return records;
}

describe("session memory in the plug-in", () => {
  it("writes a record per task into the session state file, with the ledger and a log entry per update", async () => {
    const { route, memory: memoryWith, stored, logger, store } = setup();
    expect([await route(requests[0]), await route(requests[1]), await route(requests[2])]).toEqual(["t1", "t2", "t1"]);
    const memory = memoryWith(extractiveUpdater);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);

    const file = await stored();
    expect(file.version).toBe(SESSION_STATE_VERSION);
    expect(file.data.ledger).toEqual((await store.read(sessionID))?.ledger);
    expect((file.data.ledger as { order: string[] }).order).toEqual([a1, b1, a2]);
    expect(Object.keys(file.data.records).sort()).toEqual(["t1", "t2"]);
    expect(file.data.records.t1?.coverage.groups).toEqual([a1, a2]);
    expect(file.data.records.t2?.coverage.groups).toEqual([b1]);
    expect(file.data.records.t1?.goal).toMatch(/^add textkit\/slugify\.py/);
    expect(file.data.records.t2?.goal).toMatch(/^write a CHANGELOG entry/);
    expect(file.data.memoryUpdates).toEqual([
      { task: "t1", updater: "extractive", groups: 2, ok: true, read: "whole" },
      { task: "t2", updater: "extractive", groups: 1, ok: true, read: "whole" },
    ]);
    expect(logger.lines.filter((line) => line.startsWith("info: memory of"))).toEqual([
      "info: memory of t1 updated by the extractive updater: covers 2 groups",
      "info: memory of t2 updated by the extractive updater: covers 1 groups",
    ]);
    // Nothing left to do: another pass writes nothing.
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect((await stored()).data.memoryUpdates).toHaveLength(2);
  });

  it("folds a long backlog in batches, one commit and log entry per batch", async () => {
    const { route, memory: memoryWith, stored } = setup();
    for (const request of requests) await route(request);
    const updater = scriptedUpdater({ maxGroups: 1, maxTokens: 200_000 });
    const memory = memoryWith(updater);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(updater.calls.map((call) => [call.task.id, call.previous?.coverage.groups ?? [], call.batch.map((group) => group.id)])).toEqual([
      ["t1", [], [a1]],
      ["t1", [a1], [a2]],
      ["t2", [], [b1]],
    ]);
    expect(updater.calls[0]?.requestIDs).toEqual([a1, a2]);
    const file = await stored();
    expect(file.data.memoryUpdates).toEqual([
      { task: "t1", updater: "extractive", groups: 1, ok: true, read: "whole" },
      { task: "t1", updater: "extractive", groups: 1, ok: true, read: "whole" },
      { task: "t2", updater: "extractive", groups: 1, ok: true, read: "whole" },
    ]);
    expect(file.data.records.t1?.coverage.groups).toEqual([a1, a2]);
  });

  it("keeps the previous record when an update fails, warns once, and retries only when the task has more to fold", async () => {
    const { source, route, memory: memoryWith, stored, logger, store } = setup();
    const updater = scriptedUpdater();
    const memory = memoryWith(updater);
    source.view = historyBefore(b1);
    await route(requests[0]);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    const first = (await stored()).data.records.t1 as TaskRecord;
    expect(first.coverage.groups).toEqual([a1]);

    source.view = history;
    await route(requests[1]);
    await route(requests[2]);
    updater.mode = "fail";
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    let file = await stored();
    expect(file.data.records.t1).toEqual(first);
    expect(file.data.records.t2).toBeUndefined();
    expect(file.data.memoryUpdates).toEqual([
      { task: "t1", updater: "extractive", groups: 1, ok: true, read: "whole" },
      { task: "t1", updater: "extractive", groups: 1, ok: false, read: "whole" },
      { task: "t2", updater: "extractive", groups: 1, ok: false, read: "whole" },
    ]);
    const warnings = () => logger.lines.filter((line) => line.startsWith("warn: memory update of"));
    expect(warnings()).toEqual([
      "warn: memory update of t1 failed; its previous record stays: aux model down",
      "warn: memory update of t2 failed; its previous record stays: aux model down",
    ]);
    const callsAfterFailure = updater.calls.length;

    // Another turn ends, with nothing new for either task: no second attempt, even though it would work now.
    updater.mode = "ok";
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(updater.calls).toHaveLength(callsAfterFailure);
    expect(warnings()).toHaveLength(2);
    expect((await store.read(sessionID))?.records.t1).toEqual(first);

    // A new turn of task A: A is retried with everything it has uncovered; B still waits.
    const [extraRequest, extraAnswer] = extraTurn("msg_229cd1000001ExtraTurnOfTaskA", "Back to slugify.py: also strip leading and trailing dashes.") as [
      MessageWithParts,
      MessageWithParts,
    ];
    source.view = [...history, extraRequest, extraAnswer];
    expect(await route(extraRequest)).toBe("t1");
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(updater.calls.slice(callsAfterFailure).map((call) => [call.task.id, call.batch.map((group) => group.id)])).toEqual([
      ["t1", [a2, extraRequest.info.id]],
    ]);
    file = await stored();
    expect(file.data.records.t1?.coverage.groups).toEqual([a1, a2, extraRequest.info.id]);
    expect(file.data.records.t2).toBeUndefined();
  });

  it("never rejects when the updater throws, and logs the failure", async () => {
    const { route, memory: memoryWith, stored, logger } = setup();
    for (const request of requests) await route(request);
    let calls = 0;
    const throwing: MemoryUpdater = {
      name: "model",
      limits: extractiveUpdater.limits,
      everyTurn: false,
      update: () => {
        calls += 1;
        throw new Error("updater exploded");
      },
    };
    const memory = memoryWith(throwing);
    expect(() => memory.scheduleUpdate(sessionID)).not.toThrow();
    await expect(memory.settled(sessionID)).resolves.toBeUndefined();
    expect(calls).toBe(1);
    expect(logger.lines.filter((line) => line.startsWith("error: memory update failed"))).toHaveLength(1);
    const file = await stored();
    expect(file.data.records).toEqual({});
    expect(file.data.memoryUpdates).toEqual([]);

    // An asynchronous rejection is contained the same way, and the error is not logged again.
    const rejecting: MemoryUpdater = { ...throwing, update: async () => Promise.reject(new Error("rejected")) };
    const again = memoryWith(rejecting);
    again.scheduleUpdate(sessionID);
    await expect(again.settled(sessionID)).resolves.toBeUndefined();
    expect(logger.lines.filter((line) => line.startsWith("error: memory update failed"))).toHaveLength(1);
  });

  it("pins the record per request: a newer record reaches the next request, not the calls of the current one", async () => {
    const { source, route, memory: memoryWith, store } = setup();
    const memory = memoryWith(extractiveUpdater);
    source.view = historyBefore(b1);
    await route(requests[0]);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    source.view = history;
    await route(requests[1]);
    await route(requests[2]);

    const pinned = await store.step(sessionID, (session) => memory.recordFor(session, a2, "t1"));
    expect(pinned?.coverage.groups).toEqual([a1]);
    // A's turn ends and a background update commits a newer record meanwhile.
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    const newer = (await store.read(sessionID))?.records.t1;
    expect(newer?.coverage.groups).toEqual([a1, a2]);

    expect(await store.step(sessionID, (session) => memory.recordFor(session, a2, "t1"))).toBe(pinned);
    expect(await store.step(sessionID, (session) => memory.recordFor(session, "msg_229cd1000001NextRequest000", "t1"))).toBe(newer);
  });

  it("runs exactly one more pass when updates are scheduled while one is running", async () => {
    const { route, memory: memoryWith, source } = setup();
    for (const request of requests) await route(request);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    let calls = 0;
    const slow: MemoryUpdater = {
      name: "extractive",
      limits: extractiveUpdater.limits,
      everyTurn: true,
      async update(input) {
        calls += 1;
        entered();
        await gate;
        return extractiveUpdater.update(input);
      },
    };
    const memory = memoryWith(slow);
    const readsBefore = source.reads;
    memory.scheduleUpdate(sessionID);
    await started;
    memory.scheduleUpdate(sessionID);
    memory.scheduleUpdate(sessionID);
    let settled = false;
    const done = memory.settled(sessionID).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    open();
    await done;
    // Each pass reads the history once: the first pass and exactly one more.
    expect(source.reads - readsBefore).toBe(2);
    // The second pass found everything covered.
    expect(calls).toBe(2);

    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(source.reads - readsBefore).toBe(3);
  });

  it("starts from the last call's view and reads only the newest messages, with the same records as a whole read", async () => {
    const whole = await recordsOfAWholeRead();
    const cheap = setup();
    for (const request of requests) await cheap.route(request);
    const memory = cheap.memory(extractiveUpdater);
    // The last model call saw everything but the turn's final answer.
    memory.observe(sessionID, history.slice(0, -1));
    const reads = cheap.source.reads;
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(cheap.source.reads).toBe(reads);
    expect(cheap.source.tailReads).toBe(1);
    expect((await cheap.stored()).data.records).toEqual(whole);

    // The view is taken by the update: the next one, with no call in between, reads the whole history.
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(cheap.source.reads).toBe(reads + 1);
  });

  it("after every turn, reads nothing from OpenCode: the view and the turn's announced final step give the same records as a whole read", async () => {
    const whole = await recordsOfAWholeRead();
    const cheap = setup();
    for (const request of requests) await cheap.route(request);
    const memory = cheap.memory(extractiveUpdater);
    const final = history.at(-1);
    if (final?.info.role !== "assistant") throw new Error("the fixture ends with an assistant step");
    memory.observe(sessionID, history.slice(0, -1));
    memory.observeStep(final.info);
    const reads = cheap.source.reads;
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect([cheap.source.reads, cheap.source.tailReads]).toEqual([reads, 0]);
    expect((await cheap.stored()).data.records).toEqual(whole);
    expect((await cheap.stored()).data.memoryUpdates.map((update) => (update as { read?: string }).read)).toEqual(["view", "view"]);
  });

  it("ignores an announced step of another turn, and one that asked for tools", async () => {
    const { route, memory: memoryWith, source } = setup();
    for (const request of requests) await route(request);
    const memory = memoryWith(extractiveUpdater);
    const final = history.at(-1);
    if (final?.info.role !== "assistant") throw new Error("the fixture ends with an assistant step");
    memory.observe(sessionID, history.slice(0, -1));
    memory.observeStep({ ...final.info, parentID: "another-request" });
    memory.observeStep({ ...final.info, id: "later", finish: "tool-calls" });
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(source.tailReads).toBe(1);
  });

  it("reads the whole history when the view and the newest messages do not join", async () => {
    const { route, memory: memoryWith, source, stored } = setup();
    for (const request of requests) await route(request);
    const memory = memoryWith(extractiveUpdater);
    // A view from before B: at least the tail's worth of messages came after it, so the tail cannot show that nothing is missing.
    const stale = historyBefore(b1);
    expect(history.length - stale.length).toBeGreaterThanOrEqual(TAIL_MESSAGES);
    memory.observe(sessionID, stale);
    const reads = source.reads;
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(source.reads).toBe(reads + 1);
    expect((await stored()).data.records.t2?.coverage.groups).toEqual([b1]);
  });

  it("reads the whole history when an uncovered request is out of view (a compaction hid it)", async () => {
    const { route, memory: memoryWith, source, stored } = setup();
    for (const request of requests) await route(request);
    const memory = memoryWith(extractiveUpdater);
    memory.observe(sessionID, history.slice(history.findIndex((message) => message.info.id === a2)));
    const reads = source.reads;
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect(source.reads).toBe(reads + 1);
    const records = (await stored()).data.records;
    expect(records.t1?.coverage.groups).toEqual([a1, a2]);
    expect(records.t2?.coverage.groups).toEqual([b1]);
  });

  it("writes every task's record at its first finished turn, and the extractive updater keeps it current at every turn", async () => {
    const { route, memory: memoryWith, stored } = setup();
    for (const request of requests) await route(request);
    const memory = memoryWith(extractiveUpdater, 100_000);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    const records = (await stored()).data.records;
    expect(records.t1?.coverage.groups).toEqual([a1, a2]);
    expect(records.t2?.coverage.groups).toEqual([b1]);
  });

  it("with an updater that calls a model: the first record at once, then only when a batch is full or a compaction comes", async () => {
    const { route, memory: memoryWith, stored, store } = setup();
    const modelLike: MemoryUpdater = { ...extractiveUpdater, name: "model", everyTurn: false };
    const memory = memoryWith(modelLike, 100_000);
    await route(requests[0]!);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    expect((await stored()).data.records.t1?.coverage.groups).toEqual([a1]);

    for (const request of requests.slice(1)) await route(request);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    // t1 has a record and one more turn, far short of a batch: it waits; t2's first record is written.
    expect((await stored()).data.records.t1?.coverage.groups).toEqual([a1]);
    expect((await stored()).data.records.t2?.coverage.groups).toEqual([b1]);

    await memory.updateBeforeCompaction(sessionID, 10_000);
    expect((await store.step(sessionID, (session) => memory.recordFor(session, a2, "t1")))?.coverage.groups).toEqual([a1, a2]);
  });

  it("gives up waiting for a slow update before a compaction after the wait, and the update still lands", async () => {
    const { route, memory: memoryWith, store } = setup();
    for (const request of requests) await route(request);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow: MemoryUpdater = {
      ...extractiveUpdater,
      async update(input) {
        await gate;
        return extractiveUpdater.update(input);
      },
    };
    const memory = memoryWith(slow, 100_000);
    const started = Date.now();
    await memory.updateBeforeCompaction(sessionID, 50);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await store.read(sessionID))?.records).toEqual({});
    open();
    await memory.settled(sessionID);
    expect(Object.keys((await store.read(sessionID))?.records ?? {}).sort()).toEqual(["t1", "t2"]);
  });

  it("reads a version-1 state file (the ledger alone) and upgrades it in place", async () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.93],
    ]);
    const path = sessionStatePath(temp.path, sessionID);
    await mkdir(join(temp.path, "sessions"), { recursive: true });
    await writeFile(path, JSON.stringify({ version: 1, data: { sessionID, ledger } }), "utf8");
    const { store, logger, memory: memoryWith, stored } = setup();

    expect(await store.read(sessionID)).toEqual({
      sessionID,
      ledger,
      records: {},
      memoryUpdates: [],
      off: false,
      saved: { calls: 0, routingTokens: 0, memoryTokens: 0 },
    });
    expect(logger.lines.filter((line) => line.startsWith("warn"))).toEqual([]);
    expect(await readdir(join(temp.path, "sessions"))).toEqual([`${sessionID}.json`]);

    const memory = memoryWith(extractiveUpdater);
    memory.scheduleUpdate(sessionID);
    await memory.settled(sessionID);
    const file = await stored();
    expect(file.version).toBe(SESSION_STATE_VERSION);
    expect(file.data.ledger).toEqual(ledger);
    expect(Object.keys(file.data.records).sort()).toEqual(["t1", "t2"]);
    expect(await readdir(join(temp.path, "sessions"))).toEqual([`${sessionID}.json`]);
  });
});
