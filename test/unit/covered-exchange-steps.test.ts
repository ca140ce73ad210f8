import { describe, expect, it } from "vitest";
import { buildCallView } from "../../src/plugin/core/context/call-view.js";
import { type CoveredExchange, chooseCut, coveredExchanges, fitWindow } from "../../src/plugin/core/context/replace-covered-exchanges.js";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { activeTaskOf } from "../support/context.js";
import { mainSession } from "../support/fixtures.js";
import { ledgerOf } from "../support/routing.js";

// Each step of covered-exchange replacement alone; memory-context.test.ts tests them together.

function recordCovering(groups: string[]): TaskRecord {
  return {
    version: RECORD_VERSION,
    task: "t1",
    goal: "goal",
    constraints: [],
    progress: [],
    pending: [],
    files: [],
    uncertainties: [],
    coverage: { through: groups[groups.length - 1] ?? "", groups },
    lastUpdate: { updater: "extractive", groups: groups.length, notes: [] },
  };
}

// two-tasks-with-tool-error: A (slugify), B (changelog), back to A; here all three routed to t1.
const history = mainSession("two-tasks-with-tool-error");
const [a1, b1, a2] = history.filter((message) => message.info.role === "user").map((message) => message.info.id) as [string, string, string];
const oneTask = ledgerOf([
  [a1, "new:slugify"],
  [b1, "t1"],
  [a2, "t1", 0.93],
]);

function covered(record: TaskRecord, keepRecent: number, messages: readonly MessageWithParts[] = history) {
  const view = buildCallView({ messages, ledger: oneTask });
  const active = activeTaskOf(messages, oneTask);
  if (active.kind !== "task") throw new Error(active.reason);
  return coveredExchanges({ view, inContext: view.groups.map(() => true), active, record, keepRecent });
}

describe("coveredExchanges: what may go", () => {
  it("offers the covered older groups' assistant and tool messages, oldest first, never a user request", () => {
    const { candidates, verbatimGroups } = covered(recordCovering([a1, b1]), 0);
    expect(candidates.map((candidate) => candidate.id)).toEqual([a1, b1]);
    for (const candidate of candidates) for (const index of candidate.exchange) expect(history[index]?.info.role).not.toBe("user");
    expect(candidates.every((candidate) => candidate.tokens > 0)).toBe(true);
    expect(verbatimGroups).toBe(0);
  });

  it("never offers the current request's own work, even when the record claims it", () => {
    expect(covered(recordCovering([a1, b1, a2]), 0).candidates.map((candidate) => candidate.id)).toEqual([a1, b1]);
  });

  it("keeps uncovered and recent groups whole, and counts them", () => {
    expect(covered(recordCovering([b1]), 0)).toMatchObject({ candidates: [{ id: b1 }], verbatimGroups: 1 });
    expect(covered(recordCovering([a1, b1]), 2)).toMatchObject({ candidates: [{ id: a1 }], verbatimGroups: 1 });
  });

  it("skips a group no longer in the call", () => {
    const view = buildCallView({ messages: history, ledger: oneTask });
    const active = activeTaskOf(history, oneTask);
    if (active.kind !== "task") throw new Error(active.reason);
    const inContext = toInteractionGroups(history).map((group) => group.id !== a1);
    expect(coveredExchanges({ view, inContext, active, record: recordCovering([a1, b1]), keepRecent: 0 })).toMatchObject({
      candidates: [{ id: b1 }],
      verbatimGroups: 0,
    });
  });
});

describe("chooseCut: how many go", () => {
  const cut = (tokens: number[], batchTokens: number, inForce = 0, payback = 0, readAgain = 0) =>
    chooseCut({ tokens, batchTokens, inForce, payback, readAgain: () => readAgain });

  it("takes everything with no batch size, and whole batches otherwise", () => {
    expect(cut([100, 100, 100], 0)).toBe(3);
    expect(cut([100, 100, 100], 200)).toBe(2);
    expect(cut([100, 100, 100], 250)).toBe(3);
    expect(cut([100, 100, 100], 400)).toBe(0);
    expect(cut([300, 10], 250)).toBe(1);
  });

  it("never moves back from the cut a shown text stands for", () => {
    expect(cut([100, 100, 100], 400, 2)).toBe(2);
  });

  it("moves forward only when what goes weighs payback times what is read again", () => {
    expect(cut([100, 100], 100, 0, 3, 67)).toBe(0);
    expect(cut([100, 100], 100, 0, 3, 66)).toBe(2);
    expect(cut([100, 100], 100, 1, 3, 34)).toBe(1);
    expect(cut([100, 100], 100, 1, 3, 33)).toBe(2);
  });

  it("asks what is read again only for a move forward", () => {
    let asked = 0;
    chooseCut({ tokens: [100], batchTokens: 100, inForce: 1, payback: 3, readAgain: () => (asked += 1) });
    expect(asked).toBe(0);
  });
});

describe("fitWindow: what the budget allows", () => {
  const exchanges: CoveredExchange[] = [
    { id: "g1", exchange: [1], tokens: 100 },
    { id: "g2", exchange: [3], tokens: 100 },
  ];
  // 1,000 tokens of history; each exchange that goes saves its 100; a record costs its length in tokens.
  const windowed = (budget: number | undefined, cut: number, options: { lacking?: boolean; recordTokens?: number } = {}) => {
    const recordTokens = options.recordTokens ?? 50;
    const rendered: (number | undefined)[] = [];
    const result = fitWindow({
      candidates: exchanges,
      cut,
      budget,
      lacking: (replaced) => options.lacking ?? replaced.length > 0,
      textFor: () => ({ text: "r".repeat(recordTokens), kept: false }),
      render: (maxTokens) => {
        rendered.push(maxTokens);
        return "r".repeat(Math.min(recordTokens, maxTokens ?? recordTokens));
      },
      tokensWith: (replaced, chosen) => 1000 - replaced.length * 100 + (chosen?.text.length ?? 0),
    });
    return { ...result, replaced: result.replaced.map((candidate) => candidate.id), rendered };
  };

  it("leaves the record out when the view lacks nothing it carries", () => {
    expect(windowed(undefined, 0)).toMatchObject({ replaced: [], chosen: undefined });
  });

  it("keeps the cut and the record when there is no budget or they fit", () => {
    expect(windowed(undefined, 1)).toMatchObject({ replaced: ["g1"], chosen: { kept: false } });
    expect(windowed(950, 1).window).toBeUndefined();
  });

  it("replaces every covered exchange when the record does not fit beside the cut", () => {
    expect(windowed(900, 1)).toMatchObject({ replaced: ["g1", "g2"], window: "replaced all covered" });
  });

  it("trims the record to the room left, then gives up: native history", () => {
    const trimmed = windowed(820, 1, { recordTokens: 50 });
    expect(trimmed).toMatchObject({ replaced: ["g1", "g2"], window: "record trimmed" });
    expect(trimmed.chosen?.text.length).toBe(20);
    expect(trimmed.rendered).toEqual([20]);
    expect(windowed(790, 1)).toMatchObject({ replaced: [], chosen: undefined, window: "no room" });
  });
});
