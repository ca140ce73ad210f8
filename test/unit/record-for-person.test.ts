import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { type Options, OptionsSchema } from "../../src/plugin/config/options-schema.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import { RECORD_OPEN } from "../../src/plugin/core/memory/render-record.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { PluginDeps } from "../../src/plugin/handlers/deps.js";
import { createTransformHandler } from "../../src/plugin/handlers/transform-handler.js";
import { panelLines } from "../../src/plugin/session-views/panel-lines.js";
import { rcmVerb } from "../../src/plugin/session-views/rcm-verbs.js";
import { clockTime, recordCallSentence } from "../../src/plugin/session-views/record-calls.js";
import { renderRecordForPerson } from "../../src/plugin/session-views/record-for-person.js";
import { renderStatus, renderWhy } from "../../src/plugin/session-views/render-status.js";
import { createFailOpenGuard } from "../../src/plugin/sessions/fail-open-guard.js";
import type { SessionMemory } from "../../src/plugin/sessions/session-memory.js";
import { createLiveSessions } from "../../src/plugin/sessions/session-store.js";
import { type SessionState, SessionStateSchema } from "../../src/plugin/store/session-state-file.js";
import { THRESHOLD } from "../support/defaults.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger } from "../support/plugin-parts.js";
import { fixedStore, idleRouting, ledgerOf, stateOf } from "../support/routing.js";

// The recorded two-task session: slugify (t1, requests 1 and 3), changelog (t2, request 2).
const history = () => mainSession("two-tasks-with-tool-error");
const sessionID = history()[0]?.info.sessionID as string;
const [a1, b1, a2] = history()
  .filter((message) => message.info.role === "user")
  .map((message) => message.info.id) as [string, string, string];
const ledger = ledgerOf([
  [a1, "new:Task A: add textkit/slugify.py"],
  [b1, "new:Task B: write a CHANGELOG entry"],
  [a2, "t1", 0.93],
]);
const clock = (at: number) => `@${at}`;

/** t1's record after its first turn: what the user asked in request 1, one ask overridden by request 3. */
function slugifyRecord(extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    version: RECORD_VERSION,
    task: "t1",
    goal: "A slugify(text) function in textkit/slugify.py",
    constraints: [
      { id: "c1", text: "slugify(text) lowercases the text and joins words with hyphens", sources: [a1] },
      { id: "c2", text: "drop non-ASCII letters", sources: [a1], supersededBy: a2, supersededWith: "keep unicode letters instead of dropping them" },
      { id: "c3", text: "add a test for slugify", sources: [a1, a2] },
    ],
    progress: [
      { text: "Wrote textkit/slugify.py", sources: ["call_write"] },
      { text: "Ran `pytest -q`: failed", sources: ["call_bash"] },
    ],
    pending: ["add a test for slugify", "document slugify in the README"],
    workedOn: ["add a test for slugify"],
    files: ["textkit/slugify.py"],
    uncertainties: ["Tests failing: `pytest -q`"],
    coverage: { through: a1, groups: [a1] },
    lastUpdate: { updater: "extractive", groups: 1, notes: [] },
    ...extra,
  };
}

/** A memory that hands the transform this record, as the plug-in's would once it is written. */
function memoryWith(record: TaskRecord): SessionMemory {
  return {
    observe: () => undefined,
    observeStep: () => undefined,
    scheduleUpdate: () => undefined,
    recordFor: (_session, _requestID, task) => (task === record.task ? record : undefined),
    updateBeforeCompaction: async () => undefined,
    settled: async () => undefined,
  };
}

/** One model call of the recorded session (request 3, t1) through the real transform: the state it leaves. */
async function afterCall(
  options: z.input<typeof OptionsSchema>,
  record: TaskRecord,
  state: SessionState = stateOf(sessionID, ledger, { t1: record }),
  messages: MessageWithParts[] = history(),
): Promise<SessionState> {
  const logger = recordingLogger();
  const store = fixedStore({ [sessionID]: state });
  const deps: PluginDeps = {
    options: OptionsSchema.parse(options),
    logger,
    guard: createFailOpenGuard(logger),
    sessions: createLiveSessions(),
    store,
    routing: idleRouting,
    memory: memoryWith(record),
  };
  await createTransformHandler(deps)({}, { messages });
  const after = await store.read(sessionID);
  if (!after) throw new Error("no state");
  return after;
}

// Replace every covered exchange at once, and keep only the latest group whole: request 1's exchange goes.
const REPLACING = { mode: "full", memory: { keepRecent: 1, replaceBatchTokens: 0 } } as const;
const lastMessageTime = Math.max(...history().map((message) => message.info.time.created));

describe("a task's record as a person reads it", () => {
  it("gives every field, each ask with its request numbers, pending asks as references, and what the last call carried", async () => {
    const state = await afterCall(REPLACING, slugifyRecord());
    const shown = renderRecordForPerson({ threshold: THRESHOLD, state, task: "t1", whenWritten: "never", modelTextHint: "/rcm show t1 model", clock });
    expect(shown.split("\n")).toEqual([
      'Memory record of t1 "Task A: add textkit/slugify.py"',
      "Goal: A slugify(text) function in textkit/slugify.py",
      "Covers request 1 (not yet request 3: its turn is still running or settled since: the next update takes it); written by the extractive updater (no model).",
      "Asked for, in force (2):",
      "  1. slugify(text) lowercases the text and joins words with hyphens  (#1)",
      "  2. add a test for slugify  (#1, #3)",
      "  (#N after an ask: the request it came from, numbered as status and move count them)",
      "Overridden by a later request (1; the model is told not to apply them):",
      '  - drop non-ASCII letters  (#1); overridden by #3: "keep unicode letters instead of dropping them"',
      "Pending (2, not yet shown done by a passing test run after an edit):",
      "  Not started:",
      "    document slugify in the README",
      "  Worked on (an edit, no passing test run since):",
      "    ask 2 (above)",
      "Progress (2, shown by tool results, dead ends included):",
      "  Wrote textkit/slugify.py",
      "  Ran `pytest -q`: failed",
      "Files (1): textkit/slugify.py",
      "Uncertainties (1):",
      "  Tests failing: `pytest -q`",
      `The last call for t1 (request 3, @${lastMessageTime}) carried this record in place of 1 earlier exchange.`,
      "The text the model gets: /rcm show t1 model",
    ]);
    // Nothing of the model's text: no tags, no words addressed to the model.
    expect(shown).not.toContain(RECORD_OPEN);
    expect(shown).not.toContain("left out of this conversation");
  });

  it("says no call carried it when every exchange it covers was still in view, and when an earlier call did", async () => {
    const record = slugifyRecord();
    // The defaults keep the two latest groups whole: request 1's exchange stays, so the record is not sent.
    const inView = await afterCall({ mode: "full" }, record);
    expect(inView.lastCall?.record).toMatchObject({ task: "t1", shown: false, replaced: 0, through: a1, compacted: false });
    expect(recordCallSentence(inView, record, clock)).toBe(
      `The last call for t1 (request 3, @${lastMessageTime}) did not carry it: every exchange it covers was still in view. No call has carried it yet.`,
    );
    // A call that carried it, then one that did not: both are said.
    const carried = await afterCall(REPLACING, record);
    const notAgain = await afterCall({ mode: "full" }, record, carried);
    expect(recordCallSentence(notAgain, record, clock)).toBe(
      `The last call for t1 (request 3, @${lastMessageTime}) did not carry it: every exchange it covers was still in view. The last call that did (request 3, @${lastMessageTime}) carried this record in place of 1 earlier exchange.`,
    );
  });

  it("tells a later version of the record from the one a call carried", async () => {
    const carried = await afterCall(REPLACING, slugifyRecord());
    const newer = slugifyRecord({ coverage: { through: a2, groups: [a1, a2] } });
    const state = { ...carried, records: { t1: newer } };
    expect(recordCallSentence(state, newer, clock)).toBe(
      `The last call for t1 (request 3, @${lastMessageTime}) carried an earlier version of this record (covering 1 exchange; this one covers 2) in place of 1 earlier exchange.`,
    );
    expect(renderRecordForPerson({ threshold: THRESHOLD, state, task: "t1", whenWritten: "never", clock })).toContain(
      "Covers requests 1 and 3 (every request of t1 so far)",
    );
  });

  it("counts no call of a record written anew since (a move drops the records of the tasks it touches)", async () => {
    const carried = await afterCall(REPLACING, slugifyRecord({ coverage: { through: a2, groups: [a1, a2] } }));
    // Request 3 moved away: t1's record is written again from request 1 alone.
    const rewritten = slugifyRecord();
    const state = { ...carried, records: { t1: rewritten } };
    expect(recordCallSentence(state, rewritten, clock)).toBe(
      "No model call has had this record yet: a call for t1 carries it once it leaves out exchanges the record covers.",
    );
  });

  it("names the requests a record covers in ranges from three on", () => {
    const covering = (groups: [string, ...string[]]) =>
      renderRecordForPerson({
        threshold: THRESHOLD,
        state: stateOf(sessionID, ledger, { t1: slugifyRecord({ coverage: { through: groups.at(-1) as string, groups } }) }),
        task: "t1",
        whenWritten: "",
      }).split("\n")[2];
    expect(covering([a1, b1, a2])).toMatch(/^Covers requests 1-3 /);
    expect(covering([b1, a2])).toMatch(/^Covers requests 2 and 3 \(not yet request 1: /);
  });

  it("lists a request guessed to the task apart from its asks, and counts only settled requests as not yet covered (issue 47)", () => {
    const guessed = ledgerOf([
      [a1, "new:Task A: add textkit/slugify.py"],
      [b1, "new:Task B: quote CSV fields"],
      [a2, "t1", 0.6],
    ]);
    const lines = renderRecordForPerson({
      threshold: THRESHOLD,
      state: stateOf(sessionID, guessed, { t1: slugifyRecord() }),
      task: "t1",
      whenWritten: "",
    }).split("\n");
    expect(lines[2]).toBe("Covers request 1 (every settled request of t1 so far); written by the extractive updater (no model).");
    expect(lines[3]).toMatch(/^Unsure, maybe t1's: request 3 \(routed here as a guess: kept word for word in the history, not in this record until settled/);
    // The asks are the record's alone: no line of the unsure request's among them.
    expect(lines.slice(4).join("\n")).not.toMatch(/Unsure/);
  });

  it("says when no call has had the record, when a task has none, and names the tasks for an unknown one", () => {
    const state = stateOf(sessionID, ledger, { t1: slugifyRecord() });
    expect(recordCallSentence(state, slugifyRecord(), clock)).toBe(
      "No model call has had this record yet: a call for t1 carries it once it leaves out exchanges the record covers.",
    );
    expect(renderRecordForPerson({ threshold: THRESHOLD, state, task: "t2", whenWritten: "one is written when the first turn of t2 ends" })).toBe(
      "t2: Task B: write a CHANGELOG entry\nNo memory record yet: one is written when the first turn of t2 ends.",
    );
    expect(() => renderRecordForPerson({ threshold: THRESHOLD, state, task: "t9", whenWritten: "" })).toThrow('no task "t9" in this session (tasks: t1, t2)');
  });

  it("reads a state file written before calls kept their record's version: the last call's report still says what it carried", () => {
    const old = {
      ...stateOf(sessionID, ledger, { t1: slugifyRecord() }),
      lastCall: {
        messagesBefore: 12,
        messagesAfter: 10,
        groups: [{ label: "t1", kept: 1, dropped: 0, replaced: 1 }],
        fallback: false,
        reason: "task t1",
        task: "t1",
        confidence: 0.93,
        requestID: a2,
        record: { task: "t1", covers: 1, replaced: 1, verbatim: 0, shown: true },
        tokens: { native: 900, routingSaved: 100, memorySaved: 200 },
      },
    };
    const state = SessionStateSchema.parse(old);
    expect(state.recordCalls).toBeUndefined();
    expect(recordCallSentence(state, slugifyRecord(), clock)).toBe("The last call for t1 (request 3) carried this record in place of 1 earlier exchange.");
  });
});

describe("/rcm show, status and why say what the last call carried", () => {
  const settings = (mode: Options["mode"]) => OptionsSchema.parse({ mode });

  it("show gives the person's view, and with model the text the model gets, labelled", async () => {
    const state = await afterCall(REPLACING, slugifyRecord());
    const show = rcmVerb("show");
    if (show?.kind !== "read") throw new Error("show is a reading verb");
    const person = show.answer({ options: settings("full"), state }, "t1");
    expect(person).toContain(`The last call for t1 (request 3, ${clockTime(lastMessageTime)}) carried this record in place of 1 earlier exchange.`);
    expect(person.split("\n").at(-1)).toBe("The text the model gets: /rcm show t1 model");
    const model = show.answer({ options: settings("full"), state, as: "model" }, "t1");
    expect(model.split("\n")[0]).toBe(
      "The text the model gets for t1's record, word for word (only a call that leaves out exchanges it covers carries it; /rcm show t1 shows it for a person):",
    );
    expect(model).toContain(`${RECORD_OPEN} task="t1">`);
    const cli = show.answer(
      { options: settings("full"), state, words: { showCommand: (task, asModel) => `opencode-rcm show ${task}${asModel ? " --as-model" : ""}` } },
      "t1",
    );
    expect(cli.split("\n").at(-1)).toBe("The text the model gets: opencode-rcm show t1 --as-model");
  });

  it("status and why say the record went in place of the exchanges it replaced, when it did", async () => {
    const state = await afterCall(REPLACING, slugifyRecord());
    const status = renderStatus(settings("full"), state).split("\n");
    expect(status.at(-2)).toBe(
      "  The model sees only t1's history; the other tasks are left out. The last call carried t1's memory record in place of 1 earlier exchange.",
    );
    const why = renderWhy(settings("full"), state.lastCall, state);
    expect(why).toContain(
      "  Record: the call carried t1's memory record in place of 1 earlier exchange (the record covers 1 exchange of t1 in all, in this call's view or not)",
    );
    expect(why).toContain("  Replaced by the task's record: t1 1");
    // Mode memory keeps every task in view: the same exact words about the record.
    const memory = await afterCall({ mode: "memory", memory: { replaceBatchTokens: 0 } }, slugifyRecord());
    expect(renderWhy(settings("memory"), memory.lastCall, memory)).toMatch(
      /^Last model call \(mode memory, answering request #\d+\): task t1, 93% sure; every task stays in view\.\n/,
    );
    expect(renderStatus(settings("memory"), memory)).toContain(
      "  Every task stays in view. The last call carried t1's memory record in place of 1 earlier exchange.",
    );
  });

  it("status and why never say the record was sent when it was not", async () => {
    const state = await afterCall({ mode: "full" }, slugifyRecord());
    const status = renderStatus(settings("full"), state);
    expect(status).toContain(
      "  The model sees only t1's history; the other tasks are left out. The last call did not carry t1's memory record: every exchange it covers was still in view.",
    );
    expect(status).not.toMatch(/record for the old part|stands in for/);
    const why = renderWhy(settings("full"), state.lastCall, state);
    expect(why).toContain(
      "  Record: the call did not carry t1's memory record: every exchange it covers was still in view (the record covers 1 exchange of t1 in all, in this call's view or not)",
    );
    expect(why).not.toContain("Replaced by");
    const memory = await afterCall({ mode: "memory" }, slugifyRecord());
    expect(renderStatus(settings("memory"), memory)).toContain(
      "  Every task stays in view. The last call did not carry t1's memory record: every exchange it covers was still in view.",
    );
  });

  it("status says when no call has answered the last request yet, or its task has no record", () => {
    const record = slugifyRecord();
    expect(renderStatus(settings("full"), stateOf(sessionID, ledger, { t1: record }))).toContain(
      "the other tasks are left out. No model call has answered it yet.",
    );
    expect(renderStatus(settings("full"), stateOf(sessionID, ledger))).toContain("the other tasks are left out. t1 has no memory record yet.");
    expect(renderStatus(settings("router"), stateOf(sessionID, ledger, { t1: record }))).toMatch(/the other tasks are left out\.\n/);
  });

  it("the panel says how many asks and pending items, whether the last call carried the record, and each ask's request", async () => {
    const width = 36;
    const lines = (state: SessionState) =>
      panelLines({ settings: settings("full"), state, pending: 0, problems: [], width }).map((line) => `${" ".repeat(line.indent ?? 0)}${line.text}`);
    const carried = lines(await afterCall(REPLACING, slugifyRecord()));
    expect(carried.slice(carried.indexOf("Memory of t1: 2 asks, 2 pending"), carried.indexOf("Memory of t1: 2 asks, 2 pending") + 4)).toEqual([
      "Memory of t1: 2 asks, 2 pending",
      "  last call: carried it in place of 1 exchange",
      "  • #1 slugify(text) lowercases the text and joins words with hyphens",
      "  • #1 add a test for slugify",
    ]);
    expect(lines(await afterCall({ mode: "full" }, slugifyRecord()))).toContain("  last call: not carried (all it covers in view)");
    expect(lines(stateOf(sessionID, ledger, { t1: slugifyRecord() }))).toContain("  no call has used it yet");
    const newer = { ...(await afterCall(REPLACING, slugifyRecord())), records: { t1: slugifyRecord({ coverage: { through: a2, groups: [a1, a2] } }) } };
    expect(lines(newer)).toContain("  last call: carried an earlier version in place of 1 exchange");
  });
});
