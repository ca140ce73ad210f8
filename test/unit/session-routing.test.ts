import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/plugin/config/resolve-options.js";
import type { CallReport } from "../../src/plugin/core/context/call-report.js";
import { type InteractionGroup, toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { emptyLedger, markSplit } from "../../src/plugin/core/routing/ledger.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import { moveFromWords, moveSideEffectLines } from "../../src/plugin/session-views/move-selection.js";
import { panelLines } from "../../src/plugin/session-views/panel-lines.js";
import { renderStatus, renderWhy } from "../../src/plugin/session-views/render-status.js";
import type { SessionRouting } from "../../src/plugin/sessions/session-routing.js";
import type { SessionSource } from "../../src/plugin/sessions/session-source.js";
import { SESSION_STATE_VERSION } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, sourceFor, storeWithRouting } from "../support/plugin-parts.js";
import { namedTaskRouter } from "../support/routing.js";
import { makeTempDir } from "../support/temp-dir.js";

const history = mainSession("two-tasks-with-tool-error");
const sessionID = history[0]?.info.sessionID as string;
const users = history.filter((message) => message.info.role === "user");

function textOf(message: MessageWithParts): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-session-routing");
});
afterEach(async () => {
  await temp.remove();
});

async function routeAll(routing: SessionRouting, source: ReturnType<typeof sourceFor>, requests: readonly MessageWithParts[]) {
  const results = [];
  for (const request of requests) {
    source.upTo(request.info.id);
    results.push(await routing.route(sessionID, request.info.id, textOf(request)));
  }
  return results;
}

describe("session routing in the plug-in", () => {
  it("routes each request, persists the ledger atomically, and resumes after a restart", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const logger = recordingLogger();
    const first = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger });
    const results = await routeAll(first.routing, source, users.slice(0, 2));
    expect(results.map((result) => result?.task.id)).toEqual(["t1", "t2"]);
    const file = JSON.parse(await readFile(sessionStatePath(temp.path, sessionID), "utf8"));
    expect(file.version).toBe(SESSION_STATE_VERSION);
    expect(file.data.ledger.order).toEqual(users.slice(0, 2).map((message) => message.info.id));
    expect(await readdir(join(temp.path, "sessions"))).toEqual([`${sessionID}.json`]);

    const restarted = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger });
    expect((await restarted.store.read(sessionID))?.ledger.tasks.map((task) => task.id)).toEqual(["t1", "t2"]);
    const [resumed] = await routeAll(restarted.routing, source, users.slice(2));
    expect(resumed?.task.id).toBe("t1");
    expect(logger.lines.some((line) => line.startsWith("info: routed to t1"))).toBe(true);
  });

  it("keeps the first decision when a request is routed twice", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const { routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    const [once] = await routeAll(routing, source, users.slice(0, 1));
    const [twice] = await routeAll(routing, source, users.slice(0, 1));
    expect(twice).toEqual(once);
  });

  it("reads a version-2 state file (no switch, no savings) as on, with nothing saved yet", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const first = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    await routeAll(first.routing, source, users.slice(0, 2));
    const path = sessionStatePath(temp.path, sessionID);
    const { data } = JSON.parse(await readFile(path, "utf8"));
    const { off: _off, saved: _saved, ...version2 } = data;
    await writeFile(path, JSON.stringify({ version: 2, data: version2 }), "utf8");
    const restarted = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    expect(await restarted.store.read(sessionID)).toEqual({ ...version2, off: false, saved: { calls: 0, routingTokens: 0, memoryTokens: 0 } });
  });

  it("keeps only the most recent sessions in memory and reads an evicted one back from disk", async () => {
    const other = history.map((message) => ({ ...message, info: { ...message.info, sessionID: "ses_other" } })) as MessageWithParts[];
    const source = sourceFor({ [sessionID]: { messages: history }, ses_other: { messages: other } });
    const reads: string[] = [];
    const counting = {
      ...source,
      messages: (id: string) => {
        reads.push(id);
        return source.messages(id);
      },
    };
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source: counting, logger: recordingLogger(), maxSessions: 1 });
    await routeAll(routing, source, users.slice(0, 2));
    const before = await store.read(sessionID);
    expect(reads).toEqual([sessionID]);
    await routing.route("ses_other", "m1", textOf(users[0] as MessageWithParts));
    // Session one left memory for ses_other; it comes back from its file, decisions intact, and
    // its index is rebuilt (its history read again) when it is next routed, not when it is read.
    expect(await store.read(sessionID)).toEqual(before);
    expect(reads).toEqual([sessionID, "ses_other"]);
    const [resumed] = await routeAll(routing, source, users.slice(2));
    expect(resumed?.task.id).toBe("t1");
    expect(reads).toEqual([sessionID, "ses_other", sessionID]);
  });

  it("moves an unreadable state file aside, logs a warning and starts a new ledger", async () => {
    await mkdir(join(temp.path, "sessions"), { recursive: true });
    await writeFile(sessionStatePath(temp.path, sessionID), "{ torn", "utf8");
    const source = sourceFor({ [sessionID]: { messages: history } });
    const logger = recordingLogger();
    const { routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger });
    const [result] = await routeAll(routing, source, users.slice(0, 1));
    expect(result?.task.id).toBe("t1");
    expect(logger.lines.some((line) => line.startsWith("warn: session state was unreadable (not JSON"))).toBe(true);
    const files = await readdir(join(temp.path, "sessions"));
    expect(files.some((name) => name.includes(".unreadable-"))).toBe(true);
  });

  it("leaves sub-agent sessions alone", async () => {
    const source = sourceFor({ child: { parentID: sessionID, messages: history } });
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    expect(await routing.route("child", "msg_x", "find every caller of wrap")).toBeUndefined();
    expect(await store.read("child")).toBeUndefined();
  });

  it("never shares state between sessions, even when they are routed at the same time", async () => {
    const other = history.map((message) => ({ ...message, info: { ...message.info, sessionID: "ses_other" } })) as MessageWithParts[];
    const source = sourceFor({ [sessionID]: { messages: history }, ses_other: { messages: other } });
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    const texts = users.map(textOf);
    await Promise.all([
      routing.route(sessionID, "m1", texts[0] as string),
      routing.route("ses_other", "m1", texts[1] as string),
      routing.route(sessionID, "m2", texts[1] as string),
    ]);
    const mine = (await store.read(sessionID))?.ledger;
    const theirs = (await store.read("ses_other"))?.ledger;
    expect(mine?.order).toEqual(["m1", "m2"]);
    expect(theirs?.order).toEqual(["m1"]);
    expect(theirs?.tasks).toHaveLength(1);
  });
});

describe("evidence for routing", () => {
  it("comes from what the transform sees; the stored history is read once per session and process", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    let reads = 0;
    const counting: SessionSource = {
      ...source,
      messages: async (id) => {
        reads++;
        return source.messages(id);
      },
    };
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source: counting, logger: recordingLogger() });
    const [a, b, back] = users;
    source.upTo((a as MessageWithParts).info.id);
    await routing.route(sessionID, (a as MessageWithParts).info.id, "Add textkit/slugify.py with a slugify(text) function");
    await routing.route(sessionID, (b as MessageWithParts).info.id, textOf(b as MessageWithParts));
    // The transform of B's turn saw A's and B's groups, tool calls included.
    const upToBack = history.slice(0, history.indexOf(back as MessageWithParts));
    await store.step(sessionID, (session) => routing.learn(session, toInteractionGroups(upToBack)));
    const routed = await routing.route(sessionID, (back as MessageWithParts).info.id, "keep unicode letters in slugify.py");
    expect(routed?.task.id).toBe("t1");
    expect(routed?.entry.reason).toBe("named its file slugify.py");
    expect(reads).toBe(1);
  });
});

describe("the session teaching itself", () => {
  it("relabels an unsure request whose edits all landed in another task's file, once its turn is over, and /rcm why says so", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const logger = recordingLogger();
    const [first, second, third] = users;
    // Unsure of the return to slugify: a guess at the other task, below the threshold.
    const unsureRouter: Router = {
      name: "lexical",
      route: async (request, index) =>
        request.text.startsWith("Back to slugify")
          ? { target: { kind: "task", task: "t2" }, confidence: 0.5, related: [], shared: false, reason: "unsure", basis: "content", router: "lexical" }
          : namedTaskRouter.route(request, index),
    };
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: unsureRouter, source, logger });
    const routed = await routeAll(
      routing,
      source,
      [first, second, third].filter((message) => message !== undefined),
    );
    expect(routed.map((result) => result?.task.id)).toEqual(["t1", "t2", "t2"]);
    // The third turn edited textkit/slugify.py, t1's file: when the next request comes, it is over.
    const groups = toInteractionGroups(history);
    const next: InteractionGroup = {
      id: "msg_next",
      kind: "request",
      sessionID,
      indices: [],
      requestText: "thanks",
      toolCalls: [],
      aborted: false,
      errors: [],
      subagentSessionIDs: [],
    };
    await store.step(sessionID, (session) => routing.learn(session, [...groups, next]));
    const state = await store.read(sessionID);
    const entry = state?.ledger.decisions[third?.info.id ?? ""];
    expect(entry?.task).toBe("t1");
    expect(entry?.relabelled?.from).toBe("t2");
    expect(entry?.relabelled?.files.some((file) => file.endsWith("textkit/slugify.py"))).toBe(true);
    expect(logger.lines.some((line) => line.startsWith("info: relabelled a request from t2 to t1"))).toBe(true);
    const report: CallReport = {
      messagesBefore: 9,
      messagesAfter: 9,
      groups: [],
      fallback: false,
      reason: "task t1",
      task: "t1",
      confidence: 0.92,
      tokens: { native: 100, routingSaved: 0, memorySaved: 0 },
    };
    expect(renderWhy(resolveOptions([]).options, report, state)).toMatch(
      /Relabelled by their edits \(1; .*\):\n {2}request 3: routed to t2, now t1 \(its edits: .*textkit\/slugify\.py\)/,
    );
  });

  it("keeps requests sent while off and routes them, in order, before the next request once it is on again; the panel says off meanwhile", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    await routeAll(routing, source, users.slice(0, 1));
    await store.step(sessionID, (session) => store.switchOff(session, true));
    expect(await routeAll(routing, source, users.slice(1, 2))).toEqual([undefined]);
    const off = await store.read(sessionID);
    expect(off?.whileOff).toEqual([{ messageID: users[1]?.info.id, text: textOf(users[1] as MessageWithParts) }]);
    expect(off?.ledger.order).toHaveLength(1);
    const panel = panelLines({ settings: resolveOptions([]).options, state: off, pending: 0, problems: [], width: 40 }).map((line) => line.text);
    expect(panel).toContain("Off: every call gets the native history (/rcm on to resume)");
    expect(panel).toContain("1 request sent while off: routed when it is on");
    expect(panel.some((line) => line.startsWith("Last request"))).toBe(false);

    await store.step(sessionID, (session) => store.switchOff(session, false));
    const [next] = await routeAll(routing, source, users.slice(2, 3));
    const on = await store.read(sessionID);
    expect(on?.whileOff).toBeUndefined();
    expect(on?.ledger.order).toEqual(users.slice(0, 3).map((message) => message.info.id));
    expect(on?.ledger.decisions[users[1]?.info.id as string]?.task).toBe("t2");
    expect(next?.task.id).toBe("t1");
  });

  it("moves several requests at once as the user's decisions; the records of the tasks they left and joined are dropped and the memory is told", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const moved: string[] = [];
    const { store, routing, verbs } = storeWithRouting({
      stateDir: temp.path,
      router: namedTaskRouter,
      source,
      logger: recordingLogger(),
      onMoved: (id) => moved.push(id),
    });
    await routeAll(routing, source, users.slice(0, 3));
    const before = await store.read(sessionID);
    if (!before) throw new Error("no state");
    const stub = (task: string) => ({
      version: 1 as const,
      task,
      goal: task,
      constraints: [],
      progress: [],
      pending: [],
      files: [],
      uncertainties: [],
      coverage: { through: "x", groups: ["x"] },
      lastUpdate: { updater: "extractive" as const, groups: 1, notes: [] },
    });
    await store.step(sessionID, (session) => store.commit(session, { ...session.state, records: { t1: stub("t1"), t2: stub("t2") } }));
    const [first, second, third] = before.ledger.order;
    const done = await verbs.move(sessionID, {
      kind: "move",
      requests: [
        { messageID: second as string, from: "t2" },
        { messageID: third as string, from: "t1" },
      ],
      target: { kind: "new" },
    });
    expect(done.task.id).toBe("t3");
    expect(done.moved.map((request) => request.messageID)).toEqual([second, third]);
    const after = await store.read(sessionID);
    expect([first, second, third].map((id) => after?.ledger.decisions[id as string]?.task)).toEqual(["t1", "t3", "t3"]);
    expect([second, third].map((id) => after?.ledger.decisions[id as string]?.router)).toEqual(["user", "user"]);
    expect(after?.ledger.decisions[second as string]?.opened).toBe(true);
    expect(after?.ledger.tasks.find((task) => task.id === "t3")?.openedBy).toBe(second);
    expect(Object.keys(after?.records ?? {})).toEqual([]);
    expect(moved).toEqual([sessionID]);
  });
});

describe("a move changes only the requests named (issue 48)", () => {
  it("leaves an unsure request whose edits the move gave to the target where it is, says so, and keeps it there at later steps and after a restart", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const logger = recordingLogger();
    // The return to slugify is guessed unsure into the changelog task; its turn ends unsettled.
    const unsureRouter: Router = {
      name: "lexical",
      route: async (request, index) =>
        request.text.startsWith("Back to slugify")
          ? { target: { kind: "task", task: "t2" }, confidence: 0.5, related: [], shared: false, reason: "unsure", basis: "content", router: "lexical" }
          : namedTaskRouter.route(request, index),
    };
    const { store, routing, verbs } = storeWithRouting({ stateDir: temp.path, router: unsureRouter, source, logger });
    await routeAll(routing, source, users.slice(0, 3));
    const [first, , third] = (await store.read(sessionID))?.ledger.order ?? [];
    // The move comes after the third turn ended: the whole history is stored.
    source.upTo("none");
    // The user moves request 1 (the one that wrote textkit/slugify.py) to a new task: request 3's edit is now in t3's file.
    const done = await verbs.move(sessionID, { kind: "move", requests: [{ messageID: first as string, from: "t1" }], target: { kind: "new" } });
    expect(done.task.id).toBe("t3");
    expect(done.held.map((hold) => [hold.messageID, hold.task])).toEqual([[third, "t3"]]);
    const after = await store.read(sessionID);
    expect(after?.ledger.decisions[third as string]?.task).toBe("t2");
    expect(after?.ledger.decisions[third as string]?.relabelled).toBeUndefined();
    const lines = moveSideEffectLines({ ledger: after?.ledger, held: done.held, followed: done.followed, moveCommand: "/rcm-text move" });
    expect(lines).toEqual([
      expect.stringMatching(
        /^Request 3 stays in t2 although its edits \(.*textkit\/slugify\.py\) are now in t3's files; to move it too: \/rcm-text move 3 t3$/,
      ),
    ]);
    expect(logger.lines.some((line) => line.startsWith("info: relabelled"))).toBe(false);
    expect(renderStatus(resolveOptions([]).options, after)).toMatch(/^ {2}#3 stays in t2; its edits \(.*slugify\.py\) are in t3's files: move 3 t3$/m);
    const panel = panelLines({ settings: resolveOptions([]).options, state: after, pending: 0, problems: [], width: 36 }).map((line) => line.text);
    expect(panel).toContain("Your move left #3 in t2");
    expect(panel).toContain("its edits are t3's: /rcm move 3 t3");

    // The next request ends no turn that could settle it: still in t2, at the next step and after a restart.
    const next: InteractionGroup = { ...emptyRequest, id: "msg_next", sessionID };
    await store.step(sessionID, (session) => routing.learn(session, [...toInteractionGroups(history), next]));
    expect((await store.read(sessionID))?.ledger.decisions[third as string]?.task).toBe("t2");
    const restarted = storeWithRouting({ stateDir: temp.path, router: unsureRouter, source, logger });
    await restarted.store.step(sessionID, (session) => restarted.routing.learn(session, [...toInteractionGroups(history), next]));
    expect((await restarted.store.read(sessionID))?.ledger.decisions[third as string]?.task).toBe("t2");

    // Moving it by name takes it, and the status stops listing it.
    await restarted.verbs.move(sessionID, { kind: "move", requests: [{ messageID: third as string, from: "t2" }], target: { kind: "task", task: "t3" } });
    const moved = await restarted.store.read(sessionID);
    expect(moved?.ledger.decisions[third as string]?.task).toBe("t3");
    expect(renderStatus(resolveOptions([]).options, moved)).not.toContain("stays in");
    expect(panelLines({ settings: resolveOptions([]).options, state: moved, pending: 0, problems: [], width: 36 }).map((line) => line.text)).not.toContain(
      "Your move left #3 in t2",
    );
  });

  it("refuses a move into a task split out, naming the task, its session and why", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const { store, routing, verbs } = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    await routeAll(routing, source, users.slice(0, 2));
    await store.step(sessionID, (session) => store.commit(session, { ...session.state, ledger: markSplit(session.state.ledger, "t1", "ses_split") }));
    const state = await store.read(sessionID);
    const second = state?.ledger.order[1] as string;
    const problem =
      "t1 is split out into session ses_split: no model call in this session gets its history, so a request moved there would be lost (move it to t2, new, or continue t1 in ses_split)";
    expect(moveFromWords(state?.ledger ?? emptyLedger(), ["2", "t1"])).toEqual({ problem });
    await expect(verbs.move(sessionID, { kind: "move", requests: [{ messageID: second, from: "t2" }], target: { kind: "task", task: "t1" } })).rejects.toThrow(
      problem,
    );
    expect((await store.read(sessionID))?.ledger.decisions[second]?.task).toBe("t2");
  });
});

const emptyRequest: Omit<InteractionGroup, "id" | "sessionID"> = {
  kind: "request",
  indices: [],
  requestText: "thanks",
  toolCalls: [],
  aborted: false,
  errors: [],
  subagentSessionIDs: [],
};

describe("a reply bears out the unsure request before it (issue 45)", () => {
  /** Decisions in order: the first opens t1; the rest go to t1 with the given confidence, pointing to t1. */
  function scripted(confidences: readonly number[]): Router {
    let call = 0;
    return {
      name: "lexical",
      async route() {
        const confidence = confidences[call] ?? 1;
        call += 1;
        const target = call === 1 ? ({ kind: "new", title: "slugify" } as const) : ({ kind: "task", task: "t1" } as const);
        return { target, confidence, related: [], shared: false, reason: "scripted", basis: "content", router: "lexical", pointsTo: ["t1"] };
      },
    };
  }

  async function borneOut(options: { talkOnly: boolean }) {
    const [first, second, third] = users as [MessageWithParts, MessageWithParts, MessageWithParts];
    // The second turn as the user had it: talk only, or with its recorded tool calls (files no task had).
    const messages = history.map((message) =>
      options.talkOnly && message.info.role === "assistant" && "parentID" in message.info && message.info.parentID === second.info.id
        ? { ...message, parts: message.parts.filter((part) => part.type !== "tool") }
        : message,
    );
    const source = sourceFor({ [sessionID]: { messages } });
    const logger = recordingLogger();
    const { store, routing } = storeWithRouting({ stateDir: temp.path, router: scripted([1, 0.6, 0.93]), source, logger });
    source.upTo(first.info.id);
    await routing.route(sessionID, first.info.id, "make slugify drop accents");
    source.upTo(second.info.id);
    await routing.route(sessionID, second.info.id, "why does it keep the apostrophes?");
    // The second turn's model calls: routing learns its groups.
    const upToThird = messages.slice(
      0,
      messages.findIndex((message) => message.info.id === third.info.id),
    );
    await store.step(sessionID, (session) => routing.learn(session, toInteractionGroups(upToThird)));
    source.upTo(third.info.id);
    await routing.route(sessionID, third.info.id, "ok, and make slugify keep digits too");
    const ledger = (await store.read(sessionID))?.ledger;
    return { entry: ledger?.decisions[second.info.id], logger };
  }

  it("settles a talk-only turn in the task the reply carries on in, and logs it", async () => {
    const { entry, logger } = await borneOut({ talkOnly: true });
    expect(entry?.confirmed).toEqual({ files: [], by: "next-request" });
    expect(logger.lines.some((line) => line.includes("bore out an unsure decision for t1"))).toBe(true);
  });

  it("leaves a turn that worked in files no task had unsettled", async () => {
    const { entry } = await borneOut({ talkOnly: false });
    expect(entry?.confirmed).toBeUndefined();
  });
});
