import { describe, expect, it } from "vitest";
import { routeLexically } from "../../src/core/routing/lexical-router.js";
import { extractSignals } from "../../src/core/routing/signals.js";
import { TaskIndex, type Evidence } from "../../src/core/routing/task-index.js";

function route(index: TaskIndex, text: string) {
  return routeLexically({ text, signals: extractSignals(text) }, index);
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
  ["t1", { text: "Customers opening our CSV exports in Excel see mojibake. Add an option to write a UTF-8 BOM in `ExportJob`.", paths: ["src/ledgerflow/exporters/csv_export.py"] }],
  ["t2", { text: "Users are logged out after 5 minutes even though SESSION_TIMEOUT is 30m in the auth middleware.", paths: ["src/ledgerflow/auth/session.py"] }],
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
    expect(route(index, "/tmp/run/ws4: the help output wraps badly").target.kind).toBe("new");
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
    expect(decision.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it("switches to the task whose file a request names", () => {
    const decision = route(DAILY, "in csv_export.py also write the BOM only once per file");
    expect(decision.target).toEqual({ kind: "task", task: "t1" });
  });

  it("opens a task for a request that reads as a new issue with nothing in common", () => {
    const decision = route(DAILY, "Stripe webhook verification fails in prod: StripeSignatureVerificationError, the raw body is parsed by express.json before the handler.");
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
  it("opens a task for a new name and follows a known one", () => {
    const index = indexOf([["t1", { text: "Task A: add textkit/slugify.py with a slugify(text) function" }]]);
    expect(route(index, "Task B: write a CHANGELOG entry for the 0.2 release.").target.kind).toBe("new");
    expect(route(index, "Back to task A: keep unicode letters")).toMatchObject({ target: { kind: "task", task: "t1" }, basis: "explicit" });
    expect(route(index, "finish this task a bit later").target.kind).not.toBe("new");
  });
});

describe("back-references", () => {
  it("prefer the task whose title names the topic over one that only mentioned it", () => {
    const index = new TaskIndex();
    index.addTask("t1", "#412: writes lost after power loss in the WAL");
    index.addEvidence("t1", { text: "#412: writes lost after power loss in the WAL" });
    index.addTask("t2", "#398: panic during compaction");
    index.addEvidence("t2", { text: "#398: panic during compaction" });
    index.addEvidence("t1", { text: "`cargo test --test compaction` passes now" });
    index.current = "t1";
    expect(route(index, "same for the compaction fix")).toMatchObject({ target: { kind: "task", task: "t2" }, basis: "back-reference" });
  });
});
