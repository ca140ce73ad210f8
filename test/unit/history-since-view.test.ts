import { describe, expect, it } from "vitest";
import { extendView, missesUncoveredRequest } from "../../src/plugin/core/memory/history-since-view.js";
import type { TaskRecord } from "../../src/plugin/core/memory/record.js";
import { mainSession } from "../support/fixtures.js";
import { ledgerOf } from "../support/routing.js";

const history = mainSession("two-tasks-with-tool-error");
const ids = (messages: readonly { info: { id: string } }[]) => messages.map((message) => message.info.id);
const [a1, b1, a2] = history.filter((message) => message.info.role === "user").map((message) => message.info.id) as [string, string, string];

describe("the history an update reads", () => {
  it("is the view joined with the newest messages, which replace the view's older copies", () => {
    const view = history.slice(0, -1).map((message) => ({ ...message, parts: [] }));
    const extended = extendView(view, history.slice(-4), 4);
    expect(ids(extended ?? [])).toEqual(ids(history));
    expect(extended?.slice(-4)).toEqual(history.slice(-4));
    expect(extended?.[0]?.parts).toEqual([]);
  });

  it("is the view alone when nothing is stored, and the tail alone when it holds the whole session", () => {
    expect(extendView(history, [], 8)).toEqual(history);
    expect(extendView(history.slice(0, 2), history.slice(3, 6), 8)).toEqual(history.slice(3, 6));
  });

  it("is unknown when the two do not join: a gap, or a view message missing from the tail", () => {
    expect(extendView(history.slice(0, 3), history.slice(-4), 4)).toBeUndefined();
    const tail = history.slice(-4);
    const disagreeing = [...history.slice(0, -4), tail[0]!, history[1]!, ...tail.slice(1)];
    expect(extendView(disagreeing, tail, 4)).toBeUndefined();
  });

  it("misses a request only when it is out of view, routed confidently, not shared and not covered", () => {
    const ledger = ledgerOf([
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t1", 0.93],
    ]);
    const fromA2 = history.slice(history.findIndex((message) => message.info.id === a2));
    const record = (groups: string[]) => ({ coverage: { groups } }) as unknown as TaskRecord;
    expect(missesUncoveredRequest({ messages: history, ledger, records: {}, threshold: 0.8 })).toBe(false);
    expect(missesUncoveredRequest({ messages: fromA2, ledger, records: {}, threshold: 0.8 })).toBe(true);
    expect(missesUncoveredRequest({ messages: fromA2, ledger, records: { t1: record([a1]), t2: record([b1]) }, threshold: 0.8 })).toBe(false);
    expect(missesUncoveredRequest({ messages: fromA2, ledger, records: { t1: record([a1]) }, threshold: 0.8 })).toBe(true);
    const unsure = ledgerOf([
      [a1, "new:slugify", 0.5],
      [b1, "new:changelog", 0.5],
      [a2, "t1", 0.93],
    ]);
    expect(missesUncoveredRequest({ messages: fromA2, ledger: unsure, records: {}, threshold: 0.8 })).toBe(false);
  });
});
