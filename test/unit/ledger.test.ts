import { describe, expect, it } from "vitest";
import type { RoutingDecision } from "../../src/plugin/core/routing/decision.js";
import { emptyLedger, LedgerSchema, moveRequest, recordDecision } from "../../src/plugin/core/routing/ledger.js";

const decision = (target: RoutingDecision["target"], extra: Partial<RoutingDecision> = {}): RoutingDecision => ({
  target,
  confidence: 0.9,
  related: [],
  shared: false,
  reason: "r",
  basis: "content",
  router: "lexical",
  ...extra,
});

describe("the routing ledger", () => {
  it("numbers tasks in opening order and records who opened them", () => {
    let ledger = emptyLedger();
    ledger = recordDecision(ledger, "m1", decision({ kind: "new", title: "A" })).ledger;
    ledger = recordDecision(ledger, "m2", decision({ kind: "new", title: "B" })).ledger;
    const result = recordDecision(ledger, "m3", decision({ kind: "task", task: "t1" }));
    expect(result.ledger.tasks).toEqual([
      { id: "t1", title: "A", openedBy: "m1" },
      { id: "t2", title: "B", openedBy: "m2" },
    ]);
    expect(result.entry).toMatchObject({ task: "t1", opened: false });
    expect(result.ledger.order).toEqual(["m1", "m2", "m3"]);
    expect(LedgerSchema.parse(result.ledger)).toEqual(result.ledger);
  });

  it("keeps a message's first decision and does not modify the ledger it was given", () => {
    const first = recordDecision(emptyLedger(), "m1", decision({ kind: "new", title: "A" })).ledger;
    const frozen = JSON.stringify(first);
    const again = recordDecision(first, "m1", decision({ kind: "new", title: "other" }));
    expect(again.ledger).toBe(first);
    expect(JSON.stringify(first)).toBe(frozen);
  });

  it("drops related tasks that do not exist or are the task itself, and keeps aux usage", () => {
    const opened = recordDecision(emptyLedger(), "m1", decision({ kind: "new", title: "A" })).ledger;
    const { entry } = recordDecision(
      opened,
      "m2",
      decision({ kind: "new", title: "B" }, { related: ["t1", "t2", "t7"], aux: { calls: 1, inputTokens: 10, outputTokens: 5, ms: 12 } }),
    );
    expect(entry.related).toEqual(["t1"]);
    expect(entry.aux).toEqual({ calls: 1, inputTokens: 10, outputTokens: 5, ms: 12 });
  });

  it("rejects a decision for a task the ledger does not know", () => {
    expect(() => recordDecision(emptyLedger(), "m1", decision({ kind: "task", task: "t3" }))).toThrow("decision names unknown task t3");
  });
});

describe("the user's correction (/rcm move)", () => {
  const base = () => {
    let ledger = emptyLedger();
    ledger = recordDecision(ledger, "m1", decision({ kind: "new", title: "A" })).ledger;
    ledger = recordDecision(ledger, "m2", decision({ kind: "new", title: "B" })).ledger;
    return ledger;
  };

  it("moves a request to an existing task with full confidence, reason and router user, in place", () => {
    const moved = moveRequest(base(), "m2", { kind: "task", task: "t1" });
    expect(moved.entry).toEqual({ task: "t1", opened: false, confidence: 1, related: [], shared: false, reason: "user", router: "user" });
    expect(moved.ledger.order).toEqual(["m1", "m2"]);
    // The task left without requests keeps its id, so t2 never comes to mean another task.
    expect(moved.ledger.tasks.map((task) => task.id)).toEqual(["t1", "t2"]);
    expect(LedgerSchema.parse(moved.ledger)).toEqual(moved.ledger);
  });

  it("opens a new task with the next id for a request moved to new", () => {
    const moved = moveRequest(base(), "m2", { kind: "new", title: "C" });
    expect(moved.task).toEqual({ id: "t3", title: "C", openedBy: "m2" });
    expect(moved.ledger.decisions.m2).toMatchObject({ task: "t3", opened: true, router: "user" });
  });

  it("refuses a request that was never routed and a task that does not exist", () => {
    expect(() => moveRequest(base(), "m9", { kind: "task", task: "t1" })).toThrow("request m9 was never routed");
    expect(() => moveRequest(base(), "m2", { kind: "task", task: "t7" })).toThrow("unknown task t7");
  });
});
