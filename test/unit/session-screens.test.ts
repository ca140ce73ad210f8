import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import type { CallReport } from "../../src/plugin/core/context/call-report.js";
import { confirmRequest, type Ledger, moveRequests, relabelRequest } from "../../src/plugin/core/routing/ledger.js";
import { moveFromWords, requestNumberRuns, requestRowNote } from "../../src/plugin/session-views/move-selection.js";
import { panelLines } from "../../src/plugin/session-views/panel-lines.js";
import { rcmVerb } from "../../src/plugin/session-views/rcm-verbs.js";
import { renderWhy, taskRows } from "../../src/plugin/session-views/render-status.js";
import type { SessionState } from "../../src/plugin/store/session-state-file.js";
import { ledgerOf, stateOf } from "../support/routing.js";

const options = { ...DEFAULT_OPTIONS, mode: "router" as const };

/**
 * A session as the trial left it, in small: t1 the server, t2 the docs, t3 opened by an
 * unsure request the user then moved back to t1, t4 opened by a move; request 6 relabelled by
 * its edits, request 7 borne out by them.
 */
function trialLedger(): Ledger {
  let ledger = ledgerOf([
    ["m1", "new:Add a /healthz route to server.js"],
    ["m2", "new:separate thing: the README install section is out of date"],
    ["m3", "t1"],
    ["m4", "new:Also make healthz answer HEAD", 0.27, { reason: "nothing in it is new, so not surely a new task" }],
    ["m5", "t2"],
    ["m6", "t2", 0.35],
    ["m7", "t1", 0.5],
    ["m8", "t1"],
  ]);
  ledger = moveRequests(ledger, ["m4"], { kind: "task", task: "t1" }).ledger;
  ledger = relabelRequest(ledger, "m6", { task: "t1", files: ["server.js"] });
  ledger = confirmRequest(ledger, "m7", ["server.js"]);
  ledger = moveRequests(ledger, ["m5"], { kind: "new", title: "config.json values" }).ledger;
  return ledger;
}

const read = (name: string, state: SessionState) => {
  const verb = rcmVerb(name);
  if (verb?.kind !== "read") throw new Error(`${name} is a reading verb`);
  return verb.answer({ options, state });
};

describe("the numbers move takes, on every screen (issue 48)", () => {
  it("runs of request numbers read as move takes them", () => {
    expect(requestNumberRuns([9, 1, 2, 3, 4, 6, 10])).toBe("#1-4 #6 #9-10");
    expect(requestNumberRuns([])).toBe("");
  });

  it("status, tasks and the panel number each task's requests and list the same tasks", () => {
    const state = stateOf("ses_trial", trialLedger());
    const status = read("status", state);
    const tasks = read("tasks", state);
    expect(status).toContain("Tasks (3; #n: the request numbers move takes):");
    expect(status).toMatch(/^\* t1 +current +6 requests #1 #3-4 #6-8 +latest request +Add a \/healthz route to server\.js$/m);
    expect(status).toMatch(/^ {2}t2 +suspended +1 request #2 +6 requests ago/m);
    expect(status).toMatch(/^ {2}t4 +suspended +1 request #5 +3 requests ago +config\.json values$/m);
    expect(status).toMatch(/^Last request \(#8\): t1 /m);
    // The table in tasks is the one in status, row for row.
    const table = (text: string) => text.split("\n").filter((line) => /^[* ] t\d/.test(line));
    expect(table(tasks)).toEqual(table(status));
    expect(tasks.split("\n").filter((line) => / goal: /.test(line))).toEqual([
      "t1 goal: (no record yet)",
      "t2 goal: (no record yet)",
      "t4 goal: (no record yet)",
    ]);
    const panel = panelLines({ settings: options, state, pending: 0, problems: [], width: 36 }).map((line) => line.text);
    expect(panel.filter((line) => /^[▶ ] t\d/.test(line)).map((line) => line.slice(2, 4))).toEqual(["t1", "t2", "t4"]);
    expect(panel).toContain("current · #1 #3-4 #6-8 · latest request");
  });

  it("a task emptied by moves and relabels is listed nowhere; a split task stays listed", () => {
    const state = stateOf("ses_trial", trialLedger());
    expect(state.ledger.tasks.map((task) => task.id)).toEqual(["t1", "t2", "t3", "t4"]);
    expect(taskRows(state.ledger).map((row) => row.id)).toEqual(["t1", "t2", "t4"]);
    for (const text of [read("status", state), read("tasks", state)]) {
      expect(text).not.toMatch(/\bt3\b/);
      expect(text).not.toMatch(/empty|0 requests|never/);
    }
    const split = { ...state.ledger, tasks: state.ledger.tasks.map((task) => (task.id === "t3" ? { ...task, split: { session: "ses_new" } } : task)) };
    expect(taskRows(split).map((row) => [row.id, row.status])).toContainEqual(["t3", "split → ses_new"]);
  });

  it("why names the request the call answered and counts every relabel it lists", () => {
    let ledger = ledgerOf(
      Array.from({ length: 14 }, (_, index): [string, string, number] => [`m${index + 1}`, index === 0 ? "new:a" : index === 1 ? "new:b" : "t2", 0.4]),
    );
    for (let number = 3; number <= 14; number += 1) ledger = relabelRequest(ledger, `m${number}`, { task: "t1", files: [`f${number}.js`] });
    const report: CallReport = {
      messagesBefore: 40,
      messagesAfter: 40,
      groups: [{ label: "t1", kept: 13, dropped: 0, replaced: 0 }],
      fallback: false,
      reason: "task t1",
      task: "t1",
      confidence: 0.9,
      requestID: "m14",
      record: { task: "t1", covers: 5, replaced: 0, verbatim: 12, shown: false },
      tokens: { native: 1000, routingSaved: 0, memorySaved: 0 },
    };
    const why = renderWhy(options, report, stateOf("ses_why", ledger));
    expect(why).toMatch(/^Last model call \(mode router, answering request #14\):/);
    expect(why).toContain("Relabelled by their edits (the latest 10 of 12; later routing and memory follow them):");
    expect(why.split("\n").filter((line) => /^ {2}request \d+: routed to/.test(line))).toHaveLength(10);
    expect(why).toContain("Kept (exchanges, this request's own included): t1 13");
    // The record's coverage is not a share of the kept exchanges: no sum a reader could add up wrong.
    expect(why).toContain("(the record covers 5 exchanges of t1 in all, in this call's view or not)");
    expect(why).not.toContain("word for word");
    const few = renderWhy(
      options,
      report,
      stateOf(
        "ses_why",
        relabelRequest(
          ledgerOf([
            ["m1", "new:a"],
            ["m2", "new:b", 0.4],
          ]),
          "m2",
          { task: "t1", files: ["a.js"] },
        ),
      ),
    );
    expect(few).toContain("Relabelled by their edits (1; later routing and memory follow them):");
  });
});

describe("the move picker's notes say whose confidence they show (issue 48)", () => {
  it("a relabelled request's percent is for the task it was routed to, not the one it is in now", () => {
    const { decisions } = trialLedger();
    const note = (id: string) => requestRowNote(decisions[id] ?? (undefined as never), 0.8);
    expect(note("m6")).toBe("routed to t2, 35% sure; its edits put it in t1");
    expect(note("m7")).toBe("routed to t1, 50% sure; its edits bore it out");
    expect(note("m4")).toBe("you moved it to t1");
    expect(note("m2")).toBe("opened t2, 95% sure");
    expect(note("m8")).toBe("routed to t1, 95% sure");
  });
});

describe("the panel and status after /rcm on (issue 48)", () => {
  it("say the request sent while off has no decision yet instead of showing the older decision as the latest", () => {
    const state: SessionState = { ...stateOf("ses_on", trialLedger()), off: false, whileOff: [{ messageID: "m9", text: "rename parse_date" }] };
    const panel = panelLines({ settings: options, state, pending: 0, problems: [], width: 36 }).map((line) => line.text);
    expect(panel).toContain("On again: no decision yet");
    expect(panel).toContain("1 request sent while off: routed with the next request");
    expect(panel.some((line) => line.startsWith("Last request"))).toBe(false);
    expect(panel).toContain("current · #1 #3-4 #6-8 · 1 req ago");
    const status = read("status", state);
    expect(status).toContain("Latest request: no decision yet (1 request sent while off, routed with the next request now that it is on).");
    expect(status).toMatch(/^\* t1 +current +6 requests #1 #3-4 #6-8 +1 request ago/m);
    // tasks counts the same way: the two tables agree row for row.
    const table = (text: string) => text.split("\n").filter((line) => /^[* ] t\d/.test(line));
    expect(table(read("tasks", state))).toEqual(table(status));
  });
});

describe("why for a request that opened its task unsure (issue 48)", () => {
  it("says it opened the task and how sure it is new, not that the task it made is a best guess", () => {
    const ledger = ledgerOf([
      ["m1", "new:Fix the date parser"],
      ["m2", "new:Create src/report.py that prints a weekly summary", 0.253, { reason: "asks for a file no task has: may be a new task" }],
    ]);
    const report: CallReport = {
      messagesBefore: 4,
      messagesAfter: 4,
      groups: [
        { label: "t1", kept: 1, dropped: 0, replaced: 0 },
        { label: "t2", kept: 1, dropped: 0, replaced: 0 },
      ],
      fallback: true,
      reason: "confidence 0.253 below 0.8",
      task: "t2",
      confidence: 0.253,
      requestID: "m2",
      tokens: { native: 100, routingSaved: 0, memorySaved: 0 },
    };
    const why = renderWhy(options, report, stateOf("ses_opened", ledger));
    expect(why).toMatch(
      /^Last model call \(mode router, answering request #2\): the full history \(opened t2, 25% sure it is new\): confidence 0\.253 below 0\.8\./,
    );
    expect(why).not.toContain("best guess t2");
    // Moved away since, the same call's report no longer speaks of an opening.
    const moved = moveRequests(ledger, ["m2"], { kind: "task", task: "t1" }).ledger;
    expect(renderWhy(options, report, stateOf("ses_opened", moved))).toContain("(best guess t2, 25% sure)");
  });
});

describe("what a refused move offers instead (issue 48)", () => {
  it("names the tasks the table lists: not the split one, not one emptied by moves", () => {
    const ledger = trialLedger();
    const split = { ...ledger, tasks: ledger.tasks.map((task) => (task.id === "t2" ? { ...task, split: { session: "ses_new" } } : task)) };
    expect(moveFromWords(split, ["8", "t2"])).toEqual({
      problem:
        "t2 is split out into session ses_new: no model call in this session gets its history, so a request moved there would be lost (move it to t1, t4, new, or continue t2 in ses_new)",
    });
    expect(moveFromWords(split, ["8", "t9"])).toEqual({ problem: 'no task "t9" in this session (tasks: t1, t4, or new)' });
  });
});
