import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, type Options, OptionsSchema } from "../../src/plugin/config/options-schema.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Ledger } from "../../src/plugin/core/routing/ledger.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import type { PluginDeps } from "../../src/plugin/handlers/deps.js";
import { createTransformHandler } from "../../src/plugin/handlers/transform-handler.js";
import { createFailOpenGuard } from "../../src/plugin/sessions/fail-open-guard.js";
import type { Logger } from "../../src/plugin/sessions/logger.js";
import { createLiveSessions } from "../../src/plugin/sessions/session-store.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, sourceFor, storeWithRouting } from "../support/plugin-parts.js";
import { fixedStore, idleRouting, ledgerOf, namedTaskRouter, stateOf } from "../support/routing.js";
import { makeTempDir } from "../support/temp-dir.js";

function depsFor(options: Partial<Options>): { deps: PluginDeps; logged: string[] } {
  const logged: string[] = [];
  const logger: Logger = {
    async log(level, message) {
      logged.push(`${level}: ${message}`);
    },
  };
  const deps: PluginDeps = {
    options: OptionsSchema.parse(options),
    logger,
    guard: createFailOpenGuard(logger),
    sessions: createLiveSessions(),
  };
  return { deps, logged };
}

function annotations(messages: readonly MessageWithParts[]): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === "text" && part.id === "rcm-debug" ? [part.text] : [])));
}

describe("the messages-transform handler", () => {
  it("leaves the very same array and objects in place when no option asks for a change", async () => {
    const { deps } = depsFor({ mode: "full" });
    const messages = mainSession("two-tasks-with-tool-error");
    const before = [...messages];
    const output = { messages };
    await createTransformHandler(deps)({}, output);
    expect(output.messages).toBe(messages);
    expect(messages).toEqual(before);
    messages.forEach((message, index) => {
      expect(message).toBe(before[index]);
    });
  });

  it("applies the debug annotation in place, since OpenCode ignores a new array", async () => {
    const { deps } = depsFor({ mode: "native", debug: true });
    const messages = mainSession("two-tasks-with-tool-error");
    const output = { messages };
    await createTransformHandler(deps)({}, output);
    expect(output.messages).toBe(messages);
    expect(annotations(messages)).toEqual(["[opencode-rcm debug] mode=native messages=12 groups=3 (request=3)"]);
  });

  it("passes the compaction clone through untouched, once", async () => {
    const { deps } = depsFor({ debug: true });
    const handler = createTransformHandler(deps);
    const clone = mainSession("compaction");
    const sessionID = clone[0]!.info.sessionID;
    deps.sessions.get(sessionID).compactionClone = true;
    await handler({}, { messages: clone });
    expect(annotations(clone)).toEqual([]);
    const next = mainSession("compaction");
    await handler({}, { messages: next });
    expect(annotations(next)).toHaveLength(1);
  });

  it("leaves the messages untouched and logs once when it fails", async () => {
    const { deps, logged } = depsFor({ mode: "router", debug: true });
    // As when the state directory cannot be read: the routed state does not load.
    deps.store = { ...fixedStore({}), step: () => Promise.reject(new Error("ENOTDIR: not a directory")) };
    deps.routing = idleRouting;
    const handler = createTransformHandler(deps);
    const messages = mainSession("aborted");
    const before = JSON.stringify(messages);
    await handler({}, { messages });
    await handler({}, { messages });
    expect(JSON.stringify(messages)).toBe(before);
    expect(logged.filter((line) => line.startsWith("error: transform failed"))).toHaveLength(1);
  });

  it("accepts an empty history", async () => {
    const { deps, logged } = depsFor({ debug: true });
    const output = { messages: [] as MessageWithParts[] };
    await createTransformHandler(deps)({}, output);
    expect(output.messages).toEqual([]);
    expect(logged.filter((line) => line.startsWith("error"))).toEqual([]);
  });
});

describe("the messages-transform handler with routing", () => {
  const history = () => mainSession("two-tasks-with-tool-error");
  const ids = history()
    .filter((message) => message.info.role === "user")
    .map((message) => message.info.id) as [string, string, string];
  const ledger = ledgerOf([
    [ids[0], "new:slugify"],
    [ids[1], "new:changelog"],
    [ids[2], "t1", 0.93],
  ]);
  const withRouting = (mode: Options["mode"], found: Ledger | undefined, debug = false) => {
    const { deps } = depsFor({ mode, debug });
    const sessionID = history()[0]?.info.sessionID as string;
    deps.store = fixedStore(found ? { [sessionID]: stateOf(sessionID, found) } : {});
    deps.routing = idleRouting;
    return createTransformHandler(deps);
  };

  it("leaves other tasks' groups out, in place", async () => {
    const messages = history();
    const output = { messages };
    await withRouting("router", ledger)({}, output);
    expect(output.messages).toBe(messages);
    expect(messages.filter((message) => message.info.role === "user").map((message) => message.info.id)).toEqual([ids[0], ids[2]]);
  });

  it("does not filter in memory mode, nor in a sub-agent session (no ledger)", async () => {
    for (const handler of [withRouting("memory", ledger), withRouting("full", undefined)]) {
      const messages = history();
      await handler({}, { messages });
      expect(messages).toEqual(history());
    }
  });

  it("passes a sub-agent session (the aux model's child sessions among them) through untouched, even with debug on", async () => {
    const messages = history();
    await withRouting("full", undefined, true)({}, { messages });
    expect(messages).toEqual(history());
    expect(annotations(messages)).toEqual([]);
  });
});

describe("the messages-transform handler with memory", () => {
  const history = () => mainSession("two-tasks-with-tool-error");
  const ids = history()
    .filter((message) => message.info.role === "user")
    .map((message) => message.info.id) as [string, string, string];
  const ledger = ledgerOf([
    [ids[0], "new:slugify"],
    [ids[1], "new:changelog"],
    [ids[2], "t1", 0.93],
  ]);
  const sessionID = history()[0]?.info.sessionID as string;
  const recordOf = (constraints: string[], covered: [string, ...string[]] = [ids[0]]): TaskRecord => ({
    version: RECORD_VERSION,
    task: "t1",
    goal: "slugify",
    constraints: constraints.map((text, index) => ({ id: `c${index + 1}`, text, sources: [ids[0]] })),
    progress: [],
    pending: [],
    files: [],
    uncertainties: [],
    coverage: { through: covered.at(-1) as string, groups: covered },
    lastUpdate: { updater: "extractive", groups: covered.length, notes: [] },
  });
  const withMemory = (records: TaskRecord[]) => {
    const { deps } = depsFor({ mode: "memory", memory: { ...DEFAULT_OPTIONS.memory, keepRecent: 0, replaceBatchTokens: 0 } });
    deps.store = fixedStore({ [sessionID]: stateOf(sessionID, ledger) });
    deps.routing = idleRouting;
    // Each call takes the next record, as if an update had finished in between.
    let call = 0;
    deps.memory = {
      observe: () => undefined,
      observeStep: () => undefined,
      scheduleUpdate: () => undefined,
      recordFor: () => records[Math.min(call++, records.length - 1)],
      updateBeforeCompaction: async () => undefined,
      settled: async () => undefined,
    };
    return { handler: createTransformHandler(deps), store: deps.store };
  };

  it("keeps the text it showed in the session's state and shows it again, byte for byte, after the record grew", async () => {
    // The second record also covers a later turn (an exchange not in this view).
    const { handler, store } = withMemory([recordOf(["Keep unicode letters"]), recordOf(["Keep unicode letters", "Strip accents"], [ids[0], "msg_later"])]);
    const first = history();
    await handler({}, { messages: first });
    const state = await store.read(sessionID);
    expect(state?.shownRecords?.t1).toMatchObject({ task: "t1", replaced: [ids[0]], covers: [ids[0]] });
    expect(state?.shownRecords?.t1?.text).toContain("Keep unicode letters");
    const second = history();
    await handler({}, { messages: second });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(JSON.stringify(second)).not.toContain("Strip accents");
    const lastCall = (await store.read(sessionID))?.lastCall;
    expect(lastCall?.memory).toContain("(the text shown before)");
    // What people are told the call carried is the text it carried: the record as it covered one exchange.
    expect(lastCall?.record).toMatchObject({ task: "t1", shown: true, covers: 1, through: ids[0], replaced: 1, compacted: false });
  });
});

describe("the messages-transform handler with the session's routing", () => {
  it("shows a relabel that a call's own groups settle in that very call", async () => {
    const temp = await makeTempDir("rcm-transform-relabel");
    try {
      const history = mainSession("two-tasks-with-tool-error");
      const sessionID = history[0]?.info.sessionID as string;
      const users = history.filter((message) => message.info.role === "user");
      const third = users[2] as MessageWithParts;
      // The next request, back on slugify (t1) by its file's name.
      const next: MessageWithParts = {
        info: { ...third.info, id: "msg_zz_next" } as MessageWithParts["info"],
        parts: [{ id: "prt_zz_next", sessionID, messageID: "msg_zz_next", type: "text", text: "keep unicode letters in slugify.py" }],
      };
      const messages = [...history, next];
      const source = sourceFor({ [sessionID]: { messages } });
      // Unsure of the return to slugify: a guess at the other task, below the threshold; sure of the next request.
      const unsureRouter: Router = {
        name: "lexical",
        route: async (request, index) =>
          request.text.startsWith("Back to slugify")
            ? { target: { kind: "task", task: "t2" }, confidence: 0.5, related: [], shared: false, reason: "unsure", basis: "content", router: "lexical" }
            : request.text.startsWith("keep unicode letters")
              ? {
                  target: { kind: "task", task: "t1" },
                  confidence: 0.95,
                  related: [],
                  shared: false,
                  reason: "named its file",
                  basis: "content",
                  router: "lexical",
                }
              : namedTaskRouter.route(request, index),
      };
      const { store, routing } = storeWithRouting({ stateDir: temp.path, router: unsureRouter, source, logger: recordingLogger() });
      const routed = [];
      for (const request of [...users, next]) {
        source.upTo(request.info.id);
        const text = request.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
        routed.push(await routing.route(sessionID, request.info.id, text));
      }
      expect(routed.map((result) => result?.task.id)).toEqual(["t1", "t2", "t2", "t1"]);
      expect(routed[3]?.entry.confidence).toBeGreaterThanOrEqual(DEFAULT_OPTIONS.confidenceThreshold);
      const { deps } = depsFor({ mode: "router" });
      deps.store = store;
      deps.routing = routing;
      // The first model call that sees the third turn over: its edits (t1's file) relabel it to t1, and this call keeps it.
      const sent = [...messages];
      await createTransformHandler(deps)({}, { messages: sent });
      const state = await store.read(sessionID);
      expect(state?.ledger.decisions[third.info.id]).toMatchObject({ task: "t1", relabelled: { from: "t2" } });
      expect(sent.filter((message) => message.info.role === "user").map((message) => message.info.id)).toEqual([
        users[0]?.info.id,
        third.info.id,
        next.info.id,
      ]);
      expect(state?.lastCall?.groups.find((tally) => tally.label === "t1")).toMatchObject({ kept: 3, dropped: 0 });
    } finally {
      await temp.remove();
    }
  });
});
