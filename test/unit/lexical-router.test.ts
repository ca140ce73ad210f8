import { describe, expect, it } from "vitest";
import type { RoutingDecision } from "../../src/plugin/core/routing/decision.js";
import { emptyLedger, recordDecision } from "../../src/plugin/core/routing/ledger.js";
import { applySafetyRules, routeLexically } from "../../src/plugin/core/routing/lexical-router.js";
import { ROUTER_PARAMETERS } from "../../src/plugin/core/routing/router-parameters.js";
import { extractSignals } from "../../src/plugin/core/routing/signals.js";
import { type Evidence, TaskIndex } from "../../src/plugin/core/routing/task-index.js";
import { THRESHOLD } from "../support/defaults.js";

function route(index: TaskIndex, text: string) {
  return routeLexically({ text, signals: extractSignals(text) }, index, { threshold: THRESHOLD });
}

/** An index with tasks opened in order; the last one is current. */
function indexOf(tasks: ReadonlyArray<[id: string, evidence: Evidence]>): TaskIndex {
  const index = new TaskIndex();
  for (const [id, evidence] of tasks) {
    index.addTask(id, id);
    index.addEvidence(id, evidence);
    index.current = id;
  }
  return index;
}

const DAILY = indexOf([
  [
    "t1",
    {
      text: "Customers opening our CSV exports in Excel see mojibake. Add an option to write a UTF-8 BOM in `ExportJob`.",
      paths: ["src/ledgerflow/exporters/csv_export.py"],
    },
  ],
  [
    "t2",
    { text: "Users are logged out after 5 minutes even though SESSION_TIMEOUT is 30m in the auth middleware.", paths: ["src/ledgerflow/auth/session.py"] },
  ],
]);

describe("the lexical router", () => {
  it("opens a task for the first request of a session, with full confidence", () => {
    const decision = route(new TaskIndex(), "Fix the parser");
    expect(decision).toMatchObject({ target: { kind: "new", title: "Fix the parser" }, confidence: 1, basis: "first", router: "lexical" });
  });

  it("follows a workspace path that exactly one task worked in", () => {
    const index = indexOf([
      ["t1", { text: "/tmp/run/ws1: fix the option parser", workspaces: ["/tmp/run/ws1"] }],
      ["t2", { text: "/tmp/run/ws2: add a --json flag", workspaces: ["/tmp/run/ws2"] }],
    ]);
    expect(route(index, "/tmp/run/ws1: also handle empty values")).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "workspace" });
    const issue =
      "/tmp/run/ws4: The help output wraps badly: long option names push the help column past 80 characters and the text of `--verbose` breaks mid-word.";
    expect(route(index, issue)).toMatchObject({ target: { kind: "new" }, basis: "workspace" });
    expect(route(index, issue).confidence).toBeGreaterThanOrEqual(0.8);
    // A short note at a checkout no task has used is never folded into a task with confidence.
    const note = route(index, "/tmp/run/ws4: the help output wraps badly");
    expect(note.target.kind === "new" || note.confidence < 0.8).toBe(true);
  });

  it("does not open a task for an unseen directory that is not a sibling checkout", () => {
    expect(route(DAILY, "look at /etc/ssl for the certificate").target.kind).not.toBe("new");
  });

  it("follows an explicit issue reference or task ordinal", () => {
    const index = indexOf([
      ["t1", { text: "#412: writes lost after power loss in the WAL" }],
      ["t2", { text: "#420 feature request: kvctl get --json" }],
    ]);
    expect(route(index, "re #412: add a CHANGELOG line")).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "explicit" });
    expect(route(index, "and the one for 412")).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "explicit" });
    expect(route(index, "task 1 needs a test too")).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "explicit" });
  });

  it("follows a back-reference to a named task, confidently", () => {
    const decision = route(DAILY, "back to the CSV export: every chunk starts with a BOM");
    expect(decision).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "back-reference" });
    expect(decision.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it("keeps a short follow-up on the current task", () => {
    const decision = route(DAILY, "run the tests again");
    expect(decision.target).toEqual({ kind: "task", task: "t2" });
  });

  it("switches to the task whose file a request names", () => {
    const decision = route(DAILY, "in csv_export.py also write the BOM only once per file");
    expect(decision.target).toEqual({ kind: "task", task: "t1" });
  });

  it("opens a task for a request that reads as a new issue with nothing in common", () => {
    const decision = route(
      DAILY,
      "Stripe webhook verification fails in prod: StripeSignatureVerificationError, the raw body is parsed by express.json before the handler.",
    );
    expect(decision.target.kind).toBe("new");
  });

  it("marks an instruction for every task as shared, on the current task", () => {
    expect(route(DAILY, "from now on run pytest with -q")).toMatchObject({ shared: true, basis: "shared", target: { kind: "task", task: "t2" } });
  });

  it("is unsure, below the threshold, when a request names two tasks' files", () => {
    const decision = route(DAILY, "both csv_export.py and session.py need a module docstring");
    expect(decision.confidence).toBeLessThan(0.8);
  });

  it("gives the same decision for the same history and request", () => {
    const text = "the timeout bug: also check remember-me cookies";
    expect(JSON.stringify(route(DAILY, text))).toBe(JSON.stringify(route(DAILY, text)));
  });
});

describe("task names the user gives", () => {
  it("never folds a request that names a new task into an old one with confidence, and follows a known name", () => {
    const index = indexOf([["t1", { text: "Task A: add textkit/slugify.py with a slugify(text) function" }]]);
    const named = route(index, "Task B: write a CHANGELOG entry for the 0.2 release.");
    expect(named.target.kind === "new" || named.confidence < 0.8).toBe(true);
    expect(route(index, "Back to task A: keep unicode letters")).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "explicit" });
    expect(route(index, "finish this task a bit later").target.kind).not.toBe("new");
  });
});

describe("back-references", () => {
  it("never confidently pick a task that only mentioned the topic over the one titled by it", () => {
    const index = new TaskIndex();
    index.addTask("t1", "#412: writes lost after power loss in the WAL");
    index.addEvidence("t1", { text: "#412: writes lost after power loss in the WAL" });
    index.addTask("t2", "#398: panic during compaction");
    index.addEvidence("t2", { text: "#398: panic during compaction" });
    index.addEvidence("t1", { text: "`cargo test --test compaction` passes now" });
    index.current = "t1";
    // Either the task named by its title, or unsure: never confidently the one that merely mentioned it.
    const decision = route(index, "same for the compaction fix");
    expect(decision.target.kind === "task" && decision.target.task === "t2" ? decision.basis : decision.confidence < 0.8).toBeTruthy();
  });
});

/** Routes the requests in order, each one's text becoming its task's evidence, as in a session. */
function session(texts: readonly string[]) {
  const index = new TaskIndex();
  let ledger = emptyLedger();
  return texts.map((text, position) => {
    const decision = route(index, text);
    const { task } = recordDecision(ledger, `m${position}`, decision);
    ledger = recordDecision(ledger, `m${position}`, decision).ledger;
    index.addTask(task.id, task.title);
    index.current = task.id;
    index.addEvidence(task.id, { text });
    return { task: task.id, opened: decision.target.kind === "new", confidence: decision.confidence };
  });
}

describe("safety rules that hold whatever the score", () => {
  it("does not fold a request that says it is a separate task into the current one with confidence, even with words in common", () => {
    const decisions = session([
      "Add a parse_duration function to timeutil/parse.py that accepts values like 90s and 5m and returns seconds.",
      "also accept hours, like 2h",
      "Separate task beta: add a format_bytes helper in sizeutil/format.py that returns values like 1.5 KB and accepts a precision argument.",
      "run the tests",
      "Another task gamma: write a slugify function in textutil/slug.py that returns lowercase values joined by dashes.",
    ]);
    for (const position of [2, 4]) {
      const decision = decisions[position];
      expect(decision?.opened || (decision?.confidence ?? 1) < 0.8, `request ${position}`).toBe(true);
    }
    expect(decisions.map((decision) => decision.task)).toEqual(["t1", "t1", "t2", "t2", "t3"]);
  });

  it("keeps the full history for a request with no evidence for the current task, however much it reads like a follow-up", () => {
    const index = indexOf([["t1", { text: "Add a parse_duration function to timeutil/parse.py that accepts 90s and 5m.", paths: ["timeutil/parse.py"] }]]);
    for (const text of ["also add a dark mode toggle to the settings page", "now the login form should remember the email"]) {
      const decision = route(index, text);
      expect(decision.target.kind === "new" || decision.confidence < 0.8, text).toBe(true);
    }
  });

  it("keeps a bare continuation on the current task, not held back as unsupported (how sure is the fitted model's)", () => {
    const decision = route(DAILY, "run the tests again");
    expect(decision).toMatchObject({ target: { kind: "task", task: "t2" } });
    expect(decision.confidence).toBeGreaterThan(ROUTER_PARAMETERS.caps.unsupported);
    expect(decision.reason).not.toMatch(/held back/);
  });

  it("reads the ids the plug-in shows (t1, task t2) as explicit references", () => {
    for (const [text, task] of [
      ["task t1: also strip whitespace", "t1"],
      ["t1: rename the option", "t1"],
      ["for t2, add a test", "t2"],
    ] as const) {
      const decision = route(DAILY, text);
      expect(decision, text).toMatchObject({ target: { kind: "task", task }, basis: "explicit" });
      expect(decision.confidence, text).toBeGreaterThanOrEqual(0.8);
    }
    // An upper-case T1 in code is a type name, not a task.
    expect(extractSignals("indent `| T1` like the other members").taskIds).toEqual([]);
  });

  it("holds back a model's decision by the same rules", () => {
    const index = indexOf([["t1", { text: "Add a parse_duration function to timeutil/parse.py that accepts 90s and 5m.", paths: ["timeutil/parse.py"] }]]);
    const text = "also add a dark mode toggle to the settings page";
    const modelSays: RoutingDecision = {
      target: { kind: "task", task: "t1" },
      confidence: 0.97,
      related: [],
      shared: false,
      reason: "same session",
      basis: "content",
      router: "model",
    };
    const held = applySafetyRules(modelSays, { text, signals: extractSignals(text) }, index, { threshold: THRESHOLD });
    expect(held.confidence).toBeLessThan(0.8);
    expect(held.reason).toContain("held back");
  });
});
