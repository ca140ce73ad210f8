import { describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Ledger, LedgerEntry } from "../../src/plugin/core/routing/ledger.js";
import { narrowed } from "../support/context.js";
import { loadFixture, mainSession } from "../support/fixtures.js";
import { ledgerOf } from "../support/routing.js";

function userIDs(messages: readonly MessageWithParts[]): string[] {
  return messages.filter((message) => message.info.role === "user").map((message) => message.info.id);
}

function select(messages: readonly MessageWithParts[], ledger: Ledger, threshold = 0.8) {
  return narrowed(messages, ledger, threshold);
}

// two-tasks-with-tool-error: A (slugify), B (changelog), back to A.
const history = mainSession("two-tasks-with-tool-error");
const [a1, b1, a2] = userIDs(history) as [string, string, string];

describe("narrowing to the current task on a recorded session", () => {
  it("gives a resumed task its own groups and leaves the other task's groups out whole", () => {
    const selection = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "new:changelog"],
        [a2, "t1", 0.93],
      ]),
    );
    expect(selection.filtered).toBe(true);
    expect(userIDs(selection.messages)).toEqual([a1, a2]);
    const text = JSON.stringify(selection.messages);
    expect(text).not.toContain("CHANGELOG.md");
    expect(selection).toMatchObject({ task: "t1", keptGroups: 2, totalGroups: 3 });
  });

  it("never leaves a tool call without its result: kept groups keep every message", () => {
    const selection = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "new:changelog"],
        [a2, "t1"],
      ]),
    );
    const kept = new Set(selection.messages);
    for (const group of toInteractionGroups(history)) {
      const members = group.indices.map((index) => history[index]);
      const inside = members.filter((message) => message && kept.has(message)).length;
      expect([0, members.length]).toContain(inside);
    }
  });

  it("keeps everything when the current request's confidence is below the threshold", () => {
    const selection = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "new:changelog"],
        [a2, "t1", 0.6],
      ]),
    );
    expect(selection.filtered).toBe(false);
    expect(selection.messages).toEqual(history);
    expect(selection.reason).toBe("confidence 0.6 below 0.8");
  });

  it("below the threshold with fallback candidates, leaves out only the tasks the decision ruled out", () => {
    const unsure = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.6, { candidates: ["t1"] }],
    ]);
    const selection = narrowed(history, unsure, 0.8, "candidates");
    expect(selection.filtered).toBe(true);
    expect(userIDs(selection.messages)).toEqual([a1, a2]);
    expect(selection.reason).toBe("confidence 0.6 below 0.8, kept t1");
    // The paper's fallback keeps everything; so does a decision that names no candidates.
    expect(narrowed(history, unsure, 0.8, "full").messages).toEqual(history);
    const open = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.6],
    ]);
    expect(narrowed(history, open, 0.8, "candidates").messages).toEqual(history);
    const both = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.6, { candidates: ["t1", "t2"] }],
    ]);
    expect(narrowed(history, both, 0.8, "candidates").filtered).toBe(false);
  });

  it("keeps everything when the current request was not routed", () => {
    expect(
      select(
        history,
        ledgerOf([
          [a1, "new:slugify"],
          [b1, "new:changelog"],
        ]),
      ).filtered,
    ).toBe(false);
  });

  it("keeps the groups of related tasks, and shared and unassigned groups", () => {
    const related = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "new:changelog"],
        [a2, "t1", 0.95, { related: ["t2"] }],
      ]),
    );
    expect(related.filtered).toBe(false);
    const shared = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "t1", 0.9, { shared: true }],
        [a2, "t1"],
      ]),
    );
    expect(userIDs(shared.messages)).toEqual([a1, b1, a2]);
    const unassigned = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [a2, "new:other"],
      ]),
    );
    expect(userIDs(unassigned.messages)).toEqual([b1, a2]);
  });

  it("keeps the compaction summary and routes the tail after it", () => {
    const compacted = loadFixture("compaction").transformCalls.at(-1) as MessageWithParts[];
    const ids = userIDs(mainSession("compaction"));
    const ledger = ledgerOf([
      [ids[0] as string, "new:slugify"],
      [ids[1] as string, "new:changelog"],
      [ids[3] as string, "new:other"],
    ]);
    const selection = select(compacted, ledger);
    expect(selection.messages.some((message) => message.info.role === "assistant" && message.info.summary === true)).toBe(true);
  });

  it("gives orphan steps (cut by compaction) the task of their request, and a synthetic continue the task before it", () => {
    const calls = loadFixture("auto-compaction").transformCalls;
    const afterCompaction = calls.find((call) => toInteractionGroups(call).some((group) => group.kind === "orphan"));
    expect(afterCompaction).toBeDefined();
    const groups = toInteractionGroups(afterCompaction as MessageWithParts[]);
    const orphan = groups.find((group) => group.kind === "orphan");
    const parent = orphan?.id.slice("orphan:".length) as string;
    const ids = userIDs(mainSession("auto-compaction"));
    const entries: Array<[string, string, number?]> = [[ids[0] as string, "new:slugify"]];
    if (parent !== ids[0]) entries.push([parent, "new:dump"]);
    const selection = select(afterCompaction as MessageWithParts[], ledgerOf(entries));
    // The orphan's own request is the current one or an earlier one of the same task: it stays.
    expect(selection.messages.length).toBeGreaterThan(0);
    expect(selection.messages.some((message) => orphan?.indices.some((index) => afterCompaction?.[index] === message))).toBe(true);
  });

  it("is deterministic and keeps the prefix stable across a task's consecutive model calls", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.93],
    ]);
    const calls = loadFixture("two-tasks-with-tool-error").transformCalls.filter((call) => userIDs(call).includes(a2));
    expect(calls.length).toBeGreaterThan(1);
    const outputs = calls.map((call) => JSON.stringify(select(call, ledger).messages));
    expect(JSON.stringify(select(calls[0] as MessageWithParts[], ledger).messages)).toBe(outputs[0]);
    for (let index = 1; index < outputs.length; index += 1) {
      const previous = select(calls[index - 1] as MessageWithParts[], ledger).messages;
      const next = select(calls[index] as MessageWithParts[], ledger).messages;
      expect(JSON.stringify(next.slice(0, previous.length))).toBe(JSON.stringify(previous));
    }
  });
});

describe("a request whose place is not settled (issue 45)", () => {
  it("rides along with the task it could be, marked as such, and is left out of a task it could not be", () => {
    const guessed = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "t1", 0.6, { pointsTo: ["t1"] }],
        [a2, "t1", 0.93],
      ]),
    );
    expect(userIDs(guessed.messages)).toEqual([a1, b1, a2]);
    expect(guessed.riding).toBe(1);
    const marked = guessed.messages.find((message) => message.info.id === b1);
    expect(JSON.stringify(marked?.parts)).toContain("not yet sure which task this request belongs to (t1)");

    const elsewhere = select(
      history,
      ledgerOf([
        [a1, "new:slugify"],
        [b1, "new:changelog", 0.6],
        [a2, "t1", 0.93],
      ]),
    );
    expect(userIDs(elsewhere.messages)).toEqual([a1, a2]);
    expect(elsewhere.riding).toBe(0);
  });

  it("goes with its task, unmarked, once something sure settles it", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "t1", 0.6, { pointsTo: ["t1"] }],
      [a2, "t1", 0.93],
    ]);
    const settled = { ...ledger, decisions: { ...ledger.decisions, [b1]: { ...(ledger.decisions[b1] as LedgerEntry), confirmed: { files: [] } } } };
    const selection = select(history, settled);
    expect(userIDs(selection.messages)).toEqual([a1, b1, a2]);
    expect(selection.riding).toBe(0);
    expect(JSON.stringify(selection.messages)).not.toContain("not yet sure");
  });
});
