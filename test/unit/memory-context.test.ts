import { describe, expect, it } from "vitest";
import { messageTokens } from "../../src/plugin/core/context/call-report.js";
import type { ActiveTask } from "../../src/plugin/core/context/call-view.js";
import { PAYBACK } from "../../src/plugin/core/context/replace-covered-exchanges.js";
import type { ShownRecord } from "../../src/plugin/core/context/shown-record.js";
import { type InteractionGroup, toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { compactionInstructions } from "../../src/plugin/core/memory/compaction-instructions.js";
import { listTasks, showTask } from "../../src/plugin/core/memory/describe-tasks.js";
import { extractiveUpdater } from "../../src/plugin/core/memory/extractive-updater.js";
import { digestGroups } from "../../src/plugin/core/memory/group-digest.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import { RECORD_CLOSE, RECORD_OPEN, renderRecord } from "../../src/plugin/core/memory/render-record.js";
import { requestIDsOf, uncoveredGroups } from "../../src/plugin/core/memory/uncovered-groups.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { emptyLedger, type Ledger } from "../../src/plugin/core/routing/ledger.js";
import { activeTaskOf, withRecordApplied } from "../support/context.js";
import { KEEP_RECENT, RECORD_TOKENS, THRESHOLD } from "../support/defaults.js";
import { loadFixture, mainSession } from "../support/fixtures.js";
import { ledgerOf } from "../support/routing.js";

function userIDs(messages: readonly MessageWithParts[]): string[] {
  return messages.filter((message) => message.info.role === "user").map((message) => message.info.id);
}

function ids(messages: readonly MessageWithParts[]): string[] {
  return messages.map((message) => message.info.id);
}

function messagesOf(history: readonly MessageWithParts[], group: InteractionGroup): MessageWithParts[] {
  return group.indices.map((index) => history[index] as MessageWithParts);
}

function groupByID(groups: readonly InteractionGroup[], id: string): InteractionGroup {
  const group = groups.find((candidate) => candidate.id === id);
  if (!group) throw new Error(`no group ${id}`);
  return group;
}

/** A record by hand: only its coverage matters to assembly and to uncovered groups. */
function recordCovering(task: string, groups: [string, ...string[]], extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    version: RECORD_VERSION,
    task,
    goal: `goal of ${task}`,
    constraints: [],
    progress: [],
    pending: [],
    files: [],
    uncertainties: [],
    coverage: { through: groups[groups.length - 1] as string, groups },
    lastUpdate: { updater: "extractive", groups: groups.length, notes: [] },
    ...extra,
  };
}

/** The record the extractive updater writes for `task` from the given groups of `history`. */
async function extractiveRecord(history: readonly MessageWithParts[], ledger: Ledger, task: string, groupIDs: readonly string[]): Promise<TaskRecord> {
  const groups = toInteractionGroups(history).filter((group) => groupIDs.includes(group.id));
  const ledgerTask = ledger.tasks.find((candidate) => candidate.id === task);
  if (!ledgerTask) throw new Error(`no task ${task}`);
  const result = await extractiveUpdater.update({
    task: ledgerTask,
    previous: undefined,
    batch: digestGroups(history, groups),
    requestIDs: requestIDsOf(ledger, task, THRESHOLD),
  });
  if (!result.ok) throw new Error(result.reason);
  return result.record;
}

function taskOf(active: ActiveTask): Extract<ActiveTask, { kind: "task" }> {
  if (active.kind !== "task") throw new Error(`no active task: ${active.reason}`);
  return active;
}

function assemble(messages: readonly MessageWithParts[], ledger: Ledger, record: TaskRecord, keepRecent?: number, batchTokens = 0) {
  const active = taskOf(activeTaskOf(messages, ledger, THRESHOLD));
  const title = ledger.tasks.find((task) => task.id === active.task)?.title ?? active.task;
  const renderedRecord = renderRecord(record, { title, maxTokens: RECORD_TOKENS });
  return {
    renderedRecord,
    active,
    ...withRecordApplied({ messages, ledger, active, record, renderedRecord, batchTokens, ...(keepRecent === undefined ? {} : { keepRecent }) }),
  };
}

function isRecordMessage(message: MessageWithParts): boolean {
  return message.info.id.endsWith("-rcm-memory");
}

// two-tasks-with-tool-error: A (slugify), B (changelog), back to A.
const history = mainSession("two-tasks-with-tool-error");
const [a1, b1, a2] = userIDs(history) as [string, string, string];
const groupsOfHistory = toInteractionGroups(history);
const [groupA1, groupB1, groupA2] = groupsOfHistory as [InteractionGroup, InteractionGroup, InteractionGroup];
const twoTasks = ledgerOf([
  [a1, "new:slugify"],
  [b1, "new:changelog"],
  [a2, "t1", 0.93],
]);
/** B's request is routed to A as well: three groups of one task. */
const oneTask = ledgerOf([
  [a1, "new:slugify"],
  [b1, "t1"],
  [a2, "t1", 0.93],
]);

describe("activeTask", () => {
  it("is the current request's task when it was routed confidently", () => {
    expect(activeTaskOf(history, twoTasks, THRESHOLD)).toMatchObject({ kind: "task", requestID: a2, task: "t1" });
  });

  it("is none when the current request's confidence is below the threshold", () => {
    expect(activeTaskOf(history, twoTasks, 0.95)).toEqual({ kind: "none", reason: "confidence 0.93 below 0.95" });
  });

  it("is none for a shared instruction", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.95, { shared: true }],
    ]);
    expect(activeTaskOf(history, ledger, THRESHOLD)).toEqual({ kind: "none", reason: "shared instruction" });
  });

  it("is none for a request that was not routed", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
    ]);
    expect(activeTaskOf(history, ledger, THRESHOLD)).toEqual({ kind: "none", reason: "current request not routed" });
  });

  it("after a compaction that left no request in view, is the ledger's last routed request (the continuation goes on with it)", () => {
    const afterCompaction = loadFixture("auto-compaction").transformCalls[6] as MessageWithParts[];
    const groups = toInteractionGroups(afterCompaction);
    expect(groups.map((group) => group.kind)).toEqual(["compaction", "orphan", "continuation"]);
    const ids = userIDs(mainSession("auto-compaction"));
    // At this call "Dump the word list" (ids[1]) is the latest request; compaction took it out of view.
    const ledger = ledgerOf([
      [ids[0] as string, "new:slugify"],
      [ids[1] as string, "t1"],
    ]);
    expect(activeTaskOf(afterCompaction, ledger, THRESHOLD)).toMatchObject({ kind: "task", requestID: ids[1], task: "t1", inView: false, position: -1 });
    expect(activeTaskOf([], ledger, THRESHOLD)).toEqual({ kind: "none", reason: "no user request in view" });
  });

  it("puts the record right before the continuation when the request was compacted away, and keeps the request's own steps", async () => {
    const afterCompaction = loadFixture("auto-compaction").transformCalls[6] as MessageWithParts[];
    const ids = userIDs(mainSession("auto-compaction"));
    const ledger = ledgerOf([
      [ids[0] as string, "new:slugify"],
      [ids[1] as string, "t1"],
    ]);
    const record = recordCovering("t1", [ids[0] as string, ids[1] as string]);
    const result = assemble(afterCompaction, ledger, record, 0);
    const at = result.messages.findIndex(isRecordMessage);
    expect(at).toBeGreaterThan(0);
    expect(result.messages[at + 1]?.info.role).toBe("user");
    expect(result.messages.slice(at + 1).some((message) => message.info.role === "user" && message !== result.messages[at + 1])).toBe(false);
    // Nothing of the compacted request's orphaned steps is replaced: they are its own work.
    expect(result.messages.filter((message) => !isRecordMessage(message))).toEqual(afterCompaction);
  });
});

describe("replacing covered exchanges: what the record replaces", () => {
  it("strips an older covered group of the active task to its user message, the very same object", async () => {
    const record = await extractiveRecord(history, twoTasks, "t1", [a1]);
    expect(record.coverage.groups).toEqual([a1]);
    const result = assemble(history, twoTasks, record, 0);
    const userA1 = history[groupA1.indices[0] as number] as MessageWithParts;
    expect(result.messages[0]).toBe(userA1);
    for (const dropped of messagesOf(history, groupA1).slice(1)) {
      expect(dropped.info.role).toBe("assistant");
      expect(result.messages).not.toContain(dropped);
    }
    expect(JSON.stringify(result.messages)).not.toContain("I'll add the module.");
    expect(result.replacedGroups).toBe(1);
    expect(result.verbatimGroups).toBe(0);
  });

  it("keeps an uncovered older group of the active task whole", () => {
    // A1 and B1 are both older groups of t1; the record covers only B1.
    const result = assemble(history, oneTask, recordCovering("t1", [b1]), 0);
    for (const message of messagesOf(history, groupA1)) expect(result.messages).toContain(message);
    const [userB1, ...answersB1] = messagesOf(history, groupB1);
    expect(result.messages).toContain(userB1);
    for (const message of answersB1) expect(result.messages).not.toContain(message);
    expect(result.replacedGroups).toBe(1);
    expect(result.verbatimGroups).toBe(1);
  });

  it.each([
    // The last group is the current request itself, so keepRecent 1 keeps no older group.
    { label: "none", keepRecent: 0, replaced: [a1, b1], whole: [] },
    { label: "1", keepRecent: 1, replaced: [a1, b1], whole: [] },
    { label: "2", keepRecent: 2, replaced: [a1], whole: [b1] },
    { label: "3", keepRecent: 3, replaced: [], whole: [a1, b1] },
  ])("keeps the last $label group(s) whole even when the record covers them", ({ keepRecent, replaced, whole }) => {
    const result = assemble(history, oneTask, recordCovering("t1", [a1, b1]), keepRecent);
    for (const id of replaced) {
      const [user, ...answers] = messagesOf(history, groupByID(groupsOfHistory, id));
      expect(result.messages).toContain(user);
      for (const message of answers) expect(result.messages).not.toContain(message);
    }
    for (const id of whole) {
      for (const message of messagesOf(history, groupByID(groupsOfHistory, id))) expect(result.messages).toContain(message);
    }
    expect(result.replacedGroups).toBe(replaced.length);
    expect(result.verbatimGroups).toBe(whole.length);
    // The current request's own group is never touched.
    for (const message of messagesOf(history, groupA2)) expect(result.messages).toContain(message);
  });

  it(`keeps the last ${KEEP_RECENT} groups whole by default`, () => {
    const record = recordCovering("t1", [a1, b1]);
    expect(ids(assemble(history, oneTask, record).messages)).toEqual(ids(assemble(history, oneTask, record, KEEP_RECENT).messages));
    expect(KEEP_RECENT).toBe(2);
  });

  it("leaves other tasks' groups untouched on the full history, even if the record claims them", () => {
    const result = assemble(history, twoTasks, recordCovering("t1", [a1, b1]), 0);
    const kept = messagesOf(history, groupB1);
    expect(kept).toHaveLength(3);
    for (const message of kept) expect(result.messages).toContain(message);
    expect(result.replacedGroups).toBe(1);
    // Memory mode does not filter: every group of B is there, in its place.
    expect(userIDs(result.messages).filter((id) => !id.endsWith("-rcm-memory"))).toEqual([a1, b1, a2]);
  });

  it("leaves shared groups untouched", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "t1", 0.9, { shared: true }],
      [a2, "t1"],
    ]);
    const result = assemble(history, ledger, recordCovering("t1", [a1, b1]), 0);
    for (const message of messagesOf(history, groupB1)) expect(result.messages).toContain(message);
    expect(result.replacedGroups).toBe(1);
  });

  it("drops covered continuation and orphan groups of the task whole, and leaves the compaction summary", () => {
    // After auto-compaction: the summary, an orphan step of "Dump the word list", the
    // synthetic continue and its answer, then "Back to slugify" with a first step.
    const view = loadFixture("auto-compaction").transformCalls[8] as MessageWithParts[];
    const groups = toInteractionGroups(view);
    expect(groups.map((group) => group.kind)).toEqual(["compaction", "orphan", "continuation", "request"]);
    const [compaction, orphan, continuation, request] = groups as [InteractionGroup, InteractionGroup, InteractionGroup, InteractionGroup];
    const ids = userIDs(mainSession("auto-compaction"));
    const dump = orphan.id.slice("orphan:".length);
    const ledger = ledgerOf([
      [ids[0] as string, "new:slugify"],
      [dump, "t1"],
      [request.id, "t1"],
    ]);

    // Records are built from the whole stored history, where the orphan's steps belong to their request.
    const covered = assemble(view, ledger, recordCovering("t1", [dump, continuation.id]), 0);
    for (const message of [...messagesOf(view, orphan), ...messagesOf(view, continuation)]) expect(covered.messages).not.toContain(message);
    for (const message of messagesOf(view, compaction)) expect(covered.messages).toContain(message);
    expect(covered.replacedGroups).toBe(2);
    expect(covered.messages.filter((message) => !isRecordMessage(message))).toEqual([...messagesOf(view, compaction), ...messagesOf(view, request)]);

    const uncovered = assemble(view, ledger, recordCovering("t1", [ids[0] as string]), 0);
    expect(uncovered.messages.filter((message) => !isRecordMessage(message))).toEqual(view);
    expect(uncovered.verbatimGroups).toBe(2);
  });
});

describe("replacing covered exchanges: where the record goes", () => {
  it("is a separate synthetic user message right before the current request, which stays the last user message, unchanged", async () => {
    const record = await extractiveRecord(history, twoTasks, "t1", [a1]);
    const requestBefore = JSON.stringify(history[groupA2.indices[0] as number]);
    const result = assemble(history, twoTasks, record);
    const position = result.messages.findIndex((message) => message.info.id === a2);
    const request = result.messages[position] as MessageWithParts;
    const memory = result.messages[position - 1] as MessageWithParts;
    expect(request).toBe(history[groupA2.indices[0] as number]);
    expect(JSON.stringify(request)).toBe(requestBefore);
    expect(result.messages.findLast((message) => message.info.role === "user")).toBe(request);
    expect(memory).not.toBe(request);
    expect(memory.info.role).toBe("user");
    expect(memory.info.id).toBe(`${a2}-rcm-memory`);
    expect(memory.info.sessionID).toBe(request.info.sessionID);
    expect(memory.parts).toHaveLength(1);
    expect(memory.parts[0]).toMatchObject({ type: "text", synthetic: true, text: result.renderedRecord, messageID: memory.info.id });
    expect(result.renderedRecord.startsWith(`${RECORD_OPEN} task="t1">`)).toBe(true);
    expect(result.renderedRecord.endsWith(RECORD_CLOSE)).toBe(true);
    expect(result.messages.filter(isRecordMessage)).toHaveLength(1);
    // What follows the request is its own turn, as it was.
    expect(result.messages.slice(position)).toEqual(messagesOf(history, groupA2));
  });

  it("mutates neither the input array nor its messages", () => {
    const messages = [...history];
    const before = JSON.stringify(messages);
    const active = taskOf(activeTaskOf(messages, twoTasks, THRESHOLD));
    const record = recordCovering("t1", [a1]);
    const result = withRecordApplied({ messages, ledger: twoTasks, active, record, renderedRecord: "record", keepRecent: 0 });
    expect(result.messages).not.toBe(messages);
    expect(messages).toHaveLength(history.length);
    messages.forEach((message, index) => {
      expect(message).toBe(history[index]);
    });
    expect(JSON.stringify(messages)).toBe(before);
  });
});

describe("replacing covered exchanges: a stable prefix", () => {
  const calls = loadFixture("two-tasks-with-tool-error").transformCalls.filter((call) => userIDs(call).includes(a2));

  it("gives byte-identical output up to the record across the model calls of one turn", async () => {
    expect(calls.length).toBeGreaterThan(1);
    const record = await extractiveRecord(history, twoTasks, "t1", [a1]);
    const outputs = calls.map((call) => assemble(call, twoTasks, record).messages);
    const prefixes = outputs.map((output) => JSON.stringify(output.slice(0, output.findIndex(isRecordMessage) + 1)));
    expect(outputs.every((output) => output.some(isRecordMessage))).toBe(true);
    for (const prefix of prefixes) expect(prefix).toBe(prefixes[0]);
    // Each call's whole context is a prefix of the next one's: only new steps are appended.
    for (let index = 1; index < outputs.length; index += 1) {
      const previous = outputs[index - 1] as MessageWithParts[];
      expect(JSON.stringify((outputs[index] as MessageWithParts[]).slice(0, previous.length))).toBe(JSON.stringify(previous));
    }
  });

  it("gives the same bytes for the same input, twice and from a copy", () => {
    const record = recordCovering("t1", [a1]);
    const call = calls[calls.length - 1] as MessageWithParts[];
    const once = JSON.stringify(assemble(call, twoTasks, record).messages);
    expect(JSON.stringify(assemble(call, twoTasks, record).messages)).toBe(once);
    expect(JSON.stringify(assemble(structuredClone(call), twoTasks, record).messages)).toBe(once);
  });
});

describe("replacing covered exchanges: batches, and the record only when the view lacks something", () => {
  const exchangeTokens = (group: InteractionGroup) =>
    group.indices.filter((index) => history[index]?.info.role === "assistant").reduce((sum, index) => sum + messageTokens(history[index]), 0);

  it("replaces nothing before a batch is full, and then leaves the record out: the view holds the whole task", async () => {
    const record = await extractiveRecord(history, twoTasks, "t1", [a1]);
    const result = assemble(history, twoTasks, record, 0, exchangeTokens(groupA1) + 1);
    expect(result.replacedGroups).toBe(0);
    expect(result.recordShown).toBe(false);
    expect(result.messages).toEqual(history);
  });

  it("cuts at whole batches, oldest first, and the cut stays where it is until the next batch is full", () => {
    const batch = exchangeTokens(groupA1);
    expect(exchangeTokens(groupB1)).toBeLessThan(batch);
    // Covering a1 fills one batch: a1's exchange goes, with the record.
    const first = assemble(history, oneTask, recordCovering("t1", [a1]), 0, batch);
    expect([first.replacedGroups, first.recordShown]).toEqual([1, true]);
    // Covering b1 as well adds less than a batch: the same cut, so the same bytes before the record.
    const second = assemble(history, oneTask, recordCovering("t1", [a1, b1]), 0, batch);
    expect(second.replacedGroups).toBe(1);
    const aheadOfRecord = (messages: readonly MessageWithParts[]) => messages.slice(0, messages.findIndex(isRecordMessage));
    expect(JSON.stringify(aheadOfRecord(second.messages))).toBe(JSON.stringify(aheadOfRecord(first.messages)));
  });
});

describe("replacing covered exchanges: the text shown stays until the cut moves", () => {
  const exchangeTokens = (group: InteractionGroup) =>
    group.indices.filter((index) => history[index]?.info.role === "assistant").reduce((sum, index) => sum + messageTokens(history[index]), 0);
  const batch = exchangeTokens(groupA1);
  const constraint = (id: string, text: string, source: string) => ({ id, text, sources: [source] });
  const firstRecord = recordCovering("t1", [a1], { constraints: [constraint("c1", "Keep unicode letters", a1)] });
  const grownRecord = recordCovering("t1", [a1, b1], {
    constraints: [constraint("c1", "Keep unicode letters", a1), constraint("c2", "Write the changelog in English", b1)],
  });
  const call = (record: TaskRecord, shown?: ShownRecord, ledger = oneTask, batchTokens = batch) => {
    const active = taskOf(activeTaskOf(history, ledger, THRESHOLD));
    const renderedRecord = renderRecord(record, { title: "slugify", maxTokens: RECORD_TOKENS });
    return withRecordApplied({ messages: history, ledger, active, record, renderedRecord, shown, keepRecent: 0, batchTokens });
  };
  const recordText = (messages: readonly MessageWithParts[]) => {
    const part = messages.find(isRecordMessage)?.parts[0];
    return part?.type === "text" ? part.text : undefined;
  };

  it("shows the text it showed before, byte for byte and in the same place, while the cut stays, though the record has grown since", () => {
    const first = call(firstRecord);
    expect([first.replacedGroups, first.recordShown, first.recordKept]).toEqual([1, true, false]);
    expect(first.shown).toMatchObject({ task: "t1", replaced: [a1], covers: [a1] });
    const second = call(grownRecord, first.shown);
    expect([second.replacedGroups, second.recordShown, second.recordKept]).toEqual([1, true, true]);
    expect(second.shown).toBe(first.shown);
    expect(JSON.stringify(second.messages)).toBe(JSON.stringify(first.messages));
    expect(recordText(second.messages)).not.toContain("Write the changelog in English");
  });

  it("renders the record anew once the cut moves, and the new text carries the constraints of every replaced request", () => {
    const first = call(firstRecord);
    const moved = call(grownRecord, first.shown, oneTask, 1);
    expect([moved.replacedGroups, moved.recordKept]).toEqual([2, false]);
    expect(moved.shown).toMatchObject({ replaced: [a1, b1], covers: [a1, b1] });
    const text = recordText(moved.messages) as string;
    for (const expected of ["Keep unicode letters", "Write the changelog in English"]) expect(text).toContain(expected);
    // Rendered for this call: right before its request.
    const at = moved.messages.findIndex(isRecordMessage);
    expect(moved.messages[at + 1]?.info.id).toBe(a2);
  });

  it("stays right before the request it was first shown with, so a later turn only adds to what the earlier one sent", () => {
    // Turn 1 answers B1 (A1's exchange replaced, the record before B1); turn 2 answers A2.
    const turn1 = history.slice(0, (groupB1.indices.at(-1) as number) + 1);
    const active1 = taskOf(activeTaskOf(turn1, oneTask, THRESHOLD));
    expect(active1.requestID).toBe(b1);
    const rendered = renderRecord(firstRecord, { title: "slugify", maxTokens: RECORD_TOKENS });
    const first = withRecordApplied({
      messages: turn1,
      ledger: oneTask,
      active: active1,
      record: firstRecord,
      renderedRecord: rendered,
      keepRecent: 0,
      batchTokens: batch,
    });
    expect([first.replacedGroups, first.shown?.before]).toEqual([1, b1]);
    const second = call(grownRecord, first.shown);
    expect([second.replacedGroups, second.recordKept]).toEqual([1, true]);
    const at = second.messages.findIndex(isRecordMessage);
    expect(second.messages[at + 1]?.info.id).toBe(b1);
    expect(JSON.stringify(second.messages.slice(0, first.messages.length))).toBe(JSON.stringify(first.messages));
    // The request stays the last user message.
    expect(second.messages.findLast((message) => message.info.role === "user")?.info.id).toBe(a2);
  });

  it("never moves a cut back while the text shown for it stands", () => {
    const wide = call(grownRecord, undefined, oneTask, 1);
    expect(wide.replacedGroups).toBe(2);
    // A batch the two exchanges do not fill would cut at one; the cut shown stays at two.
    const next = call(grownRecord, wide.shown, oneTask, 1_000_000);
    expect([next.replacedGroups, next.recordKept]).toEqual([2, true]);
    expect(JSON.stringify(next.messages)).toBe(JSON.stringify(wide.messages));
  });

  it("retires the text once a request it came from was moved to another task, or a compaction came", () => {
    const first = call(grownRecord, undefined, oneTask, 1);
    const shown = first.shown as ShownRecord;
    // /rcm move: B1 now belongs to t2, so t1's text, which carries its constraint, is not shown again.
    const bMoved = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.93],
    ]);
    const afterMove = call(firstRecord, { ...shown, replaced: [a1] }, bMoved);
    expect(afterMove.recordKept).toBe(false);
    expect(recordText(afterMove.messages)).not.toContain("Write the changelog in English");
    // A text shown after a compaction does not stand for a view without it (nor the other way round).
    const afterCompaction = call(grownRecord, { ...shown, compaction: "msg_compaction" }, oneTask, 1);
    expect(afterCompaction.recordKept).toBe(false);
    // Another task's text is never used.
    expect(call(grownRecord, { ...shown, task: "t2" }, oneTask, 1).recordKept).toBe(false);
  });

  it("gives the same bytes for the same history and shown text, twice and from a copy", () => {
    const first = call(firstRecord);
    const once = JSON.stringify(call(grownRecord, first.shown).messages);
    expect(JSON.stringify(call(grownRecord, structuredClone(first.shown)).messages)).toBe(once);
  });
});

describe("replacing covered exchanges: a cut moves only when it pays for the cache it costs", () => {
  const record = recordCovering("t1", [a1, b1]);
  const rendered = renderRecord(record, { title: "slugify", maxTokens: RECORD_TOKENS });
  /** The history with A1's tool result `size` characters long. */
  const withResult = (size: number) =>
    history.map((message, index) => {
      if (!groupA1.indices.includes(index) || message.info.role !== "assistant") return message;
      return {
        ...message,
        parts: message.parts.map((part) =>
          part.type === "tool" && part.state.status === "completed" ? { ...part, state: { ...part.state, output: "x".repeat(size) } } : part,
        ),
      };
    });
  const call = (messages: readonly MessageWithParts[]) =>
    withRecordApplied({
      messages,
      ledger: oneTask,
      active: taskOf(activeTaskOf(messages, oneTask, THRESHOLD)),
      record,
      renderedRecord: rendered,
      keepRecent: 0,
      batchTokens: 1,
      payback: PAYBACK,
    });

  it(`keeps covered exchanges verbatim, and the record out, while they weigh less than ${PAYBACK} times what the provider would read again`, () => {
    const result = call(history);
    expect([result.replacedGroups, result.recordShown]).toEqual([0, false]);
    expect(result.messages).toEqual(history);
  });

  it("replaces them once they do: the provider reads the rest again once, and every later call reads far less", () => {
    const big = withResult(200_000);
    const result = call(big);
    expect([result.replacedGroups, result.recordShown]).toEqual([2, true]);
    expect(JSON.stringify(result.messages)).not.toContain("x".repeat(1000));
    // Once moved, the cut holds on the calls after, whatever they weigh.
    const next = withRecordApplied({
      messages: big,
      ledger: oneTask,
      active: taskOf(activeTaskOf(big, oneTask, THRESHOLD)),
      record,
      renderedRecord: rendered,
      shown: result.shown,
      keepRecent: 0,
      batchTokens: 1_000_000,
      payback: PAYBACK,
    });
    expect([next.replacedGroups, next.recordKept]).toEqual([2, true]);
  });
});

describe("uncoveredGroups", () => {
  function uncovered(messages: readonly MessageWithParts[], ledger: Ledger, records: Record<string, TaskRecord> = {}): Record<string, string[]> {
    const map = uncoveredGroups({ messages, groups: toInteractionGroups(messages), ledger, records });
    return Object.fromEntries([...map].map(([task, groups]) => [task, groups.map((group) => group.id)]));
  }

  it("lists each task's finished groups in session order, without the covered ones", () => {
    expect(uncovered(history, twoTasks)).toEqual({ t1: [a1, a2], t2: [b1] });
    expect(uncovered(history, twoTasks, { t1: recordCovering("t1", [a1]) })).toEqual({ t1: [a2], t2: [b1] });
    expect(uncovered(history, twoTasks, { t1: recordCovering("t1", [a1, a2]), t2: recordCovering("t2", [b1]) })).toEqual({});
  });

  it("never remembers a group routed below the threshold while its task is a guess", () => {
    const unsure = ledgerOf([
      [a1, "new:slugify"],
      [a2, "t1"],
      [b1, "t1", 0.78],
    ]);
    const map = uncoveredGroups({ messages: history, groups: toInteractionGroups(history), ledger: unsure, records: {}, threshold: 0.8 });
    expect([...map].map(([task, groups]) => [task, groups.map((group) => group.id)])).toEqual([["t1", [a1, a2]]]);
    expect(requestIDsOf(unsure, "t1", 0.8)).toEqual([a1, a2]);
    expect(requestIDsOf(unsure, "t1", 0)).toEqual([a1, a2, b1]);
    // A sure request of another task after it settles nothing.
    expect(
      requestIDsOf(
        ledgerOf([
          [a1, "new:slugify"],
          [b1, "t1", 0.78],
          [a2, "new:other"],
        ]),
        "t1",
        0.8,
      ),
    ).toEqual([a1]);
  });

  it("never remembers a guess only because sure requests of its task come before and after it (issue 47)", () => {
    const between = ledgerOf([
      [a1, "new:slugify"],
      [b1, "t1", 0.78],
      [a2, "t1", 0.93],
    ]);
    expect(requestIDsOf(between, "t1", 0.8)).toEqual([a1, a2]);
    const map = uncoveredGroups({ messages: history, groups: toInteractionGroups(history), ledger: between, records: {}, threshold: 0.8 });
    expect([...map].map(([task, groups]) => [task, groups.map((group) => group.id)])).toEqual([["t1", [a1, a2]]]);
    // Settled by the next request carrying on as a reply (ledger.ts), it is remembered.
    const carried = ledgerOf([
      [a1, "new:slugify"],
      [b1, "t1", 0.78],
      [a2, "t1", 0.93],
    ]);
    const entry = carried.decisions[b1];
    if (!entry) throw new Error("no decision for b1");
    carried.decisions[b1] = { ...entry, confirmed: { files: [], by: "next-request" } };
    expect(requestIDsOf(carried, "t1", 0.8)).toEqual([a1, b1, a2]);
  });

  it("leaves out a turn still running: its last step asked for tools and nothing after it was answered", () => {
    const calls = loadFixture("two-tasks-with-tool-error").transformCalls.filter((call) => userIDs(call).includes(a2) && call.length > 8);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const last = call[call.length - 1]?.info;
      expect(last?.role === "assistant" && last.finish).toBe("tool-calls");
      expect(uncovered(call, twoTasks)).toEqual({ t1: [a1], t2: [b1] });
    }
    // A request not answered yet is not finished either.
    const waiting = calls[0]?.slice(0, 8) as MessageWithParts[];
    expect(uncovered(waiting, twoTasks)).toEqual({ t1: [a1], t2: [b1] });
  });

  it("counts an aborted step as the end of its turn", () => {
    const aborted = loadFixture("aborted").transformCalls[1] as MessageWithParts[];
    const [suite, files] = userIDs(aborted) as [string, string];
    const step = aborted[1]?.info;
    expect(step?.role === "assistant" && step.error?.name).toBe("MessageAbortedError");
    expect(step?.role === "assistant" && step.finish).toBeUndefined();
    const ledger = ledgerOf([
      [suite, "new:slow suite"],
      [files, "new:files"],
    ]);
    expect(uncovered(aborted, ledger)).toEqual({ t1: [suite] });
  });

  it("counts a turn cut short by compaction as finished once a later group is answered", () => {
    const calls = loadFixture("auto-compaction").transformCalls;
    const full = mainSession("auto-compaction");
    // Users: the slugify request, the dump request, the compaction, the synthetic continue, back to slugify.
    const [slugify, dump, compaction, resume, back] = userIDs(full) as [string, string, string, string, string];
    const ledger = ledgerOf([
      [slugify, "new:slugify"],
      [dump, "new:dump"],
      [back, "t1"],
    ]);
    // Before the compaction the dump's last step asked for tools: not finished.
    const beforeCompaction = calls[5] as MessageWithParts[];
    expect(uncovered(beforeCompaction, ledger)).toEqual({ t1: [slugify] });
    // Without its final step, the dump turn ends in a tool call, but the compaction after it was answered.
    const cut = full.filter((message) => !(message.info.role === "assistant" && message.info.parentID === dump && message.info.finish === "stop"));
    expect(cut.length).toBe(full.length - 1);
    // The compaction group belongs to no task; the synthetic continue carries on the dump.
    expect(uncovered(cut, ledger)).toEqual({ t1: [slugify, back], t2: [dump, resume] });
    expect(groupByID(toInteractionGroups(cut), compaction).kind).toBe("compaction");
  });

  it("leaves out shared and unrouted groups", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "t1", 0.9, { shared: true }],
    ]);
    expect(uncovered(history, ledger)).toEqual({ t1: [a1] });
  });

  it("requestIDsOf gives a task's routed requests in order, without shared decisions", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "t1", 0.9, { shared: true }],
      [a2, "t1"],
    ]);
    expect(requestIDsOf(ledger, "t1", THRESHOLD)).toEqual([a1, a2]);
    expect(requestIDsOf(twoTasks, "t1", THRESHOLD)).toEqual([a1, a2]);
    expect(requestIDsOf(twoTasks, "t2", THRESHOLD)).toEqual([b1]);
    expect(requestIDsOf(twoTasks, "t9", THRESHOLD)).toEqual([]);
  });
});

describe("compactionInstructions", () => {
  it("names every task with its status and whether a record stands for it, without the records themselves", async () => {
    const record = await extractiveRecord(history, twoTasks, "t1", [a1, a2]);
    const text = compactionInstructions({ ledger: twoTasks, records: { t1: record } }) as string;
    expect(text).toContain("the suspended ones included");
    expect(text).toContain("- Task t1 (current): slugify (its memory record is in the conversation)");
    expect(text).toContain("- Task t2 (suspended): changelog (no memory record yet");
    expect(text).not.toContain(renderRecord(record, { title: "slugify", maxTokens: RECORD_TOKENS }));
    expect(text.indexOf("Task t1 (")).toBeLessThan(text.indexOf("Task t2 ("));
  });

  it("makes the task of the last routed request the current one", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
    ]);
    const records = { t1: recordCovering("t1", [a1]), t2: recordCovering("t2", [b1]) };
    const text = compactionInstructions({ ledger, records }) as string;
    expect(text).toContain("- Task t1 (suspended): slugify");
    expect(text).toContain("- Task t2 (current): changelog");
  });

  it("is undefined when the session has no tasks", () => {
    expect(compactionInstructions({ ledger: emptyLedger(), records: {} })).toBeUndefined();
  });
});

describe("listTasks and showTask", () => {
  const records = { t1: recordCovering("t1", [a1], { goal: "Add textkit/slugify.py", pending: ["keep unicode letters"] }) };

  it("lists every task with its status, title and goal", () => {
    expect(listTasks(twoTasks, records)).toBe(
      ["t1 [current] slugify", "  goal: Add textkit/slugify.py; 1 pending", "t2 [suspended] changelog", "  goal: (no record yet)"].join("\n"),
    );
    const afterB = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
    ]);
    expect(listTasks(afterB, records)).toContain("t1 [suspended] slugify");
    expect(listTasks(afterB, records)).toContain("t2 [current] changelog");
    expect(listTasks(emptyLedger(), {})).toBe("No tasks yet in this session.");
  });

  it("shows a task's rendered record, or says it has none yet", () => {
    expect(showTask(twoTasks, records, "t1", RECORD_TOKENS)).toBe(renderRecord(records.t1, { title: "slugify", maxTokens: RECORD_TOKENS }));
    expect(showTask(twoTasks, records, "t2", RECORD_TOKENS)).toMatch(/^t2: changelog\nNo memory record yet/);
  });

  it("names the known tasks when asked for an unknown one", () => {
    expect(() => showTask(twoTasks, records, "t9", RECORD_TOKENS)).toThrow('no task "t9" in this session (tasks: t1, t2)');
    expect(() => showTask(emptyLedger(), {}, "t1", RECORD_TOKENS)).toThrow("(tasks: none)");
  });
});
