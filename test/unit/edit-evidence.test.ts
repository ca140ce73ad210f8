import { describe, expect, it } from "vitest";
import type { InteractionGroup, ToolCallSummary } from "../../src/plugin/core/interaction-groups.js";
import { carriesOn } from "../../src/plugin/core/routing/carried-on.js";
import { editVerdict, evidenceOwner, settlementsOf } from "../../src/plugin/core/routing/edit-evidence.js";
import type { Ledger, LedgerEntry } from "../../src/plugin/core/routing/ledger.js";
import { extractSignals } from "../../src/plugin/core/routing/signals.js";

function call(tool: string, filePath: string, id: string): ToolCallSummary {
  return { callID: id, tool, status: "completed", input: { filePath } };
}

function request(id: string, text: string, calls: ToolCallSummary[]): InteractionGroup {
  return { id, kind: "request", sessionID: "s1", indices: [], requestText: text, toolCalls: calls, aborted: false, errors: [], subagentSessionIDs: [] };
}

function entry(task: string, confidence: number, extra: Partial<LedgerEntry> = {}): LedgerEntry {
  return { task, opened: false, confidence, related: [], shared: false, reason: "test", router: "lexical", ...extra };
}

const ROOT = "/home/dev/app";
const GROUPS = [
  request("m1", "Draft the setup guide", [call("write", `${ROOT}/docs/setup.md`, "c1")]),
  request("m2", "The date parser accepts Feb 30", [call("read", `${ROOT}/src/dates/parse.py`, "c2"), call("edit", `${ROOT}/src/dates/parse.py`, "c3")]),
  request("m3", "reviewer wants the error message to say which field was wrong", [call("edit", `${ROOT}/src/dates/parse.py`, "c4")]),
  request("m4", "and now?", []),
];

function ledgerWith(third: LedgerEntry): Ledger {
  return {
    tasks: [
      { id: "t1", title: "setup guide", openedBy: "m1" },
      { id: "t2", title: "date parser", openedBy: "m2" },
      { id: "t3", title: "error message", openedBy: "m3" },
    ],
    decisions: { m1: entry("t1", 1, { opened: true }), m2: entry("t2", 0.95, { opened: true }), m3: third, m4: entry("t3", 0.9) },
    order: ["m1", "m2", "m3", "m4"],
  };
}

describe("the session teaches itself from a turn's edits", () => {
  it("relabels an unsure request whose edits are all in one other task's files, unless it opened a task (a neighbour in the same file)", () => {
    expect(settlementsOf({ groups: GROUPS, ledger: ledgerWith(entry("t3", 0.7, { opened: true })), threshold: 0.8, finishedBefore: 3 })).toEqual([]);
    const relabels = settlementsOf({ groups: GROUPS, ledger: ledgerWith(entry("t1", 0.7)), threshold: 0.8, finishedBefore: 3 });
    expect(relabels).toEqual([{ messageID: "m3", kind: "relabel", task: "t2", files: [`${ROOT}/src/dates/parse.py`] }]);
  });

  it("leaves a sure decision, the user's word and a turn still running alone", () => {
    expect(settlementsOf({ groups: GROUPS, ledger: ledgerWith(entry("t3", 0.9, { opened: true })), threshold: 0.8, finishedBefore: 3 })).toEqual([]);
    expect(settlementsOf({ groups: GROUPS, ledger: ledgerWith(entry("t3", 1, { router: "user" })), threshold: 0.8, finishedBefore: 3 })).toEqual([]);
    expect(settlementsOf({ groups: GROUPS, ledger: ledgerWith(entry("t3", 0.7, { opened: true })), threshold: 0.8, finishedBefore: 2 })).toEqual([]);
  });

  it("bears out an unsure decision whose edits are its own task's, or no task's for a task it opened", () => {
    const unsureT2 = { ...ledgerWith(entry("t2", 0.7)), decisions: { ...ledgerWith(entry("t2", 0.7)).decisions } };
    expect(settlementsOf({ groups: GROUPS, ledger: unsureT2, threshold: 0.8, finishedBefore: 3 })).toEqual([
      { messageID: "m3", kind: "confirm", task: "t2", files: [`${ROOT}/src/dates/parse.py`] },
    ]);
    const owners: Record<string, string[]> = { a: ["t1"], mine: ["t3"] };
    const ownersOf = (path: string) => owners[path] ?? [];
    expect(editVerdict({ routedTo: "t3", opened: true, edited: ["new.md"], ownersOf })).toEqual({ kind: "confirm" });
    expect(editVerdict({ routedTo: "t3", opened: false, edited: ["mine", "new.md"], ownersOf })).toEqual({ kind: "confirm" });
    // A new file says nothing about which existing task a request belongs to; another task's file forbids it.
    expect(editVerdict({ routedTo: "t3", opened: false, edited: ["new.md"], ownersOf })).toBeUndefined();
    expect(editVerdict({ routedTo: "t3", opened: true, edited: ["mine", "a"], ownersOf })).toBeUndefined();
  });

  it("counts no file as a task's while the request that touched it is unsure", () => {
    // m2 opened t2 unsure: its parse.py is nobody's, so m3's edit of it settles nothing.
    const ledger = ledgerWith(entry("t1", 0.7));
    const unsureSecond = { ...ledger, decisions: { ...ledger.decisions, m2: entry("t2", 0.6, { opened: true }) } };
    expect(settlementsOf({ groups: GROUPS, ledger: unsureSecond, threshold: 0.8, finishedBefore: 3 })).toEqual([
      { messageID: "m2", kind: "confirm", task: "t2", files: [`${ROOT}/src/dates/parse.py`] },
      { messageID: "m3", kind: "relabel", task: "t2", files: [`${ROOT}/src/dates/parse.py`] },
    ]);
  });

  it("says nothing when the edits touch the routed task's own files, a new file, or two tasks' files", () => {
    const owners: Record<string, string[]> = { a: ["t1"], b: ["t2"], both: ["t1", "t2"] };
    const ownersOf = (path: string) => owners[path] ?? [];
    expect(evidenceOwner({ routedTo: "t3", edited: ["a"], ownersOf })).toBe("t1");
    expect(evidenceOwner({ routedTo: "t1", edited: ["a"], ownersOf })).toBeUndefined();
    expect(evidenceOwner({ routedTo: "t3", edited: ["a", "new.py"], ownersOf })).toBeUndefined();
    expect(evidenceOwner({ routedTo: "t3", edited: ["a", "b"], ownersOf })).toBeUndefined();
    expect(evidenceOwner({ routedTo: "t3", edited: ["both"], ownersOf })).toBeUndefined();
    expect(evidenceOwner({ routedTo: "t3", edited: [], ownersOf })).toBeUndefined();
  });
});

describe("settled by more than edits (issue 45)", () => {
  const ownersOf = (path: string) => ({ "src/dates/parse.py": ["t2"], "docs/setup.md": ["t1"] })[path] ?? [];

  it("settles an unsure request by what its turn read or tested, when it touched one task's files only", () => {
    const read = request("m3", "why does it accept Feb 30?", [call("read", `${ROOT}/src/dates/parse.py`, "c9")]);
    const groups = [...GROUPS.slice(0, 2), read];
    expect(settlementsOf({ groups, ledger: ledgerWith(entry("t1", 0.6)), threshold: 0.8, finishedBefore: 3 })).toEqual([
      { messageID: "m3", kind: "relabel", task: "t2", files: [`${ROOT}/src/dates/parse.py`] },
    ]);
    // Reading files nobody had says nothing of a task the request opened.
    const opened = ledgerWith(entry("t3", 0.6, { opened: true }));
    const looked = [...GROUPS.slice(0, 2), request("m3", "look at the notes", [call("read", `${ROOT}/NOTES.md`, "c9")])];
    expect(settlementsOf({ groups: looked, ledger: opened, threshold: 0.8, finishedBefore: 3 })).toEqual([]);
  });

  it("settles on an edit only where the request itself pointed: the model may edit where it guessed", () => {
    expect(editVerdict({ routedTo: "t3", opened: false, edited: ["src/dates/parse.py"], ownersOf, pointsTo: ["t3"] })).toBeUndefined();
    expect(editVerdict({ routedTo: "t3", opened: false, edited: ["src/dates/parse.py"], ownersOf, pointsTo: ["t2", "t3"] })).toEqual({
      kind: "relabel",
      task: "t2",
    });
    expect(editVerdict({ routedTo: "t1", opened: false, edited: ["docs/setup.md"], ownersOf, pointsTo: [] })).toBeUndefined();
    expect(editVerdict({ routedTo: "t1", opened: false, edited: ["docs/setup.md"], ownersOf, pointsTo: ["t1"] })).toEqual({ kind: "confirm" });
  });
});

describe("settled by the next request (issue 45)", () => {
  const unsure = entry("t2", 0.6, { pointsTo: ["t2"] });
  const sure = entry("t2", 0.92);
  const carries = (text: string, options: { previous?: LedgerEntry; next?: LedgerEntry; files?: string[] } = {}) =>
    carriesOn({
      previous: options.previous ?? unsure,
      next: options.next ?? sure,
      nextText: text,
      nextSignals: extractSignals(text),
      previousFiles: options.files ?? [],
      ownersOf: (path) => ({ "src/dates/parse.py": ["t2"], "docs/setup.md": ["t1"] })[path] ?? [],
      threshold: 0.8,
    });

  it("bears out a talk-only turn when the reply carries on surely in the task it was guessed to", () => {
    expect(carries("ok, and make parse_date reject day 0 too")).toBe(true);
    expect(carries("ok, and make parse_date reject day 0 too", { files: ["src/dates/parse.py"] })).toBe(true);
  });

  it("never on a correction, a return that names its task, another task, an unsure reply or a turn in other or new files", () => {
    expect(carries("no, I meant parse_date in the other module")).toBe(false);
    expect(carries("back to the date parser: reject day 0")).toBe(false);
    expect(carries("for the date parser, reject day 0")).toBe(false);
    expect(carries("ok, and make parse_date reject day 0 too", { next: entry("t1", 0.92) })).toBe(false);
    expect(carries("ok, and make parse_date reject day 0 too", { next: entry("t2", 0.7) })).toBe(false);
    expect(carries("ok, and make parse_date reject day 0 too", { files: ["docs/setup.md"] })).toBe(false);
    expect(carries("ok, and make parse_date reject day 0 too", { files: ["src/new_module.py"] })).toBe(false);
    // Nothing in the unsure request pointed to its guess: the reply's task is not evidence for it.
    expect(carries("ok, and make parse_date reject day 0 too", { previous: entry("t2", 0.6, { pointsTo: ["t1"] }) })).toBe(false);
  });
});
