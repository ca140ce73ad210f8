import { describe, expect, it } from "vitest";
import type { Ledger, LedgerEntry, LedgerTask } from "../../src/plugin/core/routing/ledger.js";
import { fallbackChangesView, routingToast } from "../../src/plugin/session-views/toasts.js";
import { THRESHOLD } from "../support/defaults.js";

const task = (id: string, title = "Fix the date parser"): LedgerTask => ({ id, title, openedBy: "m1" });
const entry = (extra: Partial<LedgerEntry>): LedgerEntry => ({
  task: "t2",
  opened: false,
  confidence: 0.93,
  related: [],
  shared: false,
  reason: "r",
  router: "lexical",
  ...extra,
});
/** A session whose requests went to these tasks, in order. */
const ledgerOf = (...tasks: string[]): Ledger => ({
  tasks: [...new Set(tasks)].map((id) => task(id)),
  decisions: Object.fromEntries(tasks.map((id, index) => [`m${index}`, entry({ task: id })])),
  order: tasks.map((_, index) => `m${index}`),
});
const ledger = ledgerOf("t1", "t2", "t3");

describe("routing toasts", () => {
  it("says when a request opens a task, but not for the session's first", () => {
    expect(routingToast({ entry: entry({ opened: true }), task: task("t2"), previous: "t1", threshold: THRESHOLD, ledger })).toEqual({
      title: "RCM: new task t2",
      message: '93% sure: "Fix the date parser"',
      variant: "info",
    });
    expect(
      routingToast({ entry: entry({ task: "t1", opened: true, confidence: 1 }), task: task("t1"), previous: undefined, threshold: THRESHOLD, ledger }),
    ).toBeUndefined();
  });

  it("says when a request switches task, and stays quiet on the same task or for a shared instruction", () => {
    expect(routingToast({ entry: entry({}), task: task("t2"), previous: "t1", threshold: THRESHOLD, ledger })?.title).toBe("RCM: switched to t2");
    expect(routingToast({ entry: entry({}), task: task("t2"), previous: "t2", threshold: THRESHOLD, ledger })).toBeUndefined();
    expect(routingToast({ entry: entry({ shared: true, confidence: 0.5 }), task: task("t2"), previous: "t1", threshold: THRESHOLD, ledger })).toBeUndefined();
  });

  it("warns when it is unsure and the model gets the full history, with a title short enough for a toast", () => {
    const long = "A very long request title that goes on and on about the exporter and the parser and the docs";
    const toast = routingToast({ entry: entry({ confidence: 0.55 }), task: task("t2", long), previous: "t2", threshold: THRESHOLD, ledger });
    expect(toast).toMatchObject({ title: "RCM: full history", variant: "warning" });
    expect(toast?.message).toMatch(/^55% sure, under 80%\. Best guess t2: ".{39}…"\nNot t2\? \/rcm move <task> \(or new\)$/);
  });

  it("names the tasks an unsure decision kept under fallback candidates instead of claiming the full history", () => {
    const toast = routingToast({ entry: entry({ confidence: 0.6 }), task: task("t3"), previous: "t3", threshold: THRESHOLD, ledger, kept: ["t1", "t3"] });
    expect(toast).toMatchObject({ title: "RCM: unsure, kept t1, t3", variant: "warning" });
  });

  it("shows the confidence so it never contradicts the decision: 0.797 under 80% is 79.7%, not 80%", () => {
    const toast = routingToast({ entry: entry({ confidence: 0.797 }), task: task("t2"), previous: "t1", threshold: 0.8, ledger: ledgerOf("t1", "t2") });
    expect(toast?.message).toBe('79.7% sure, under 80%. Best guess t2: "Fix the date parser"\nNot t2? /rcm move t1 (or new)');
  });

  it("says nothing of a fallback when the session has one task: the full history is that task's", () => {
    expect(
      routingToast({ entry: entry({ task: "t1", confidence: 0.5 }), task: task("t1"), previous: "t1", threshold: THRESHOLD, ledger: ledgerOf("t1", "t1") }),
    ).toBeUndefined();
    expect(
      routingToast({
        entry: entry({ task: "t1", opened: true, confidence: 0.5 }),
        task: task("t1"),
        previous: undefined,
        threshold: THRESHOLD,
        ledger: ledgerOf("t1"),
      }),
    ).toBeUndefined();
    // An unsure request that opens a second task: narrowed, the model would get t2 alone.
    expect(
      routingToast({ entry: entry({ opened: true, confidence: 0.5 }), task: task("t2"), previous: "t1", threshold: THRESHOLD, ledger: ledgerOf("t1", "t2") })
        ?.title,
    ).toBe("RCM: full history");
  });

  it("asks of an unsure request that opened its task whether it is new at all, not whether the task it made is right", () => {
    const toast = routingToast({
      entry: entry({ task: "t3", opened: true, confidence: 0.27 }),
      task: task("t3", "Also the healthz route should answer HEAD"),
      previous: "t1",
      threshold: THRESHOLD,
      ledger: ledgerOf("t1", "t1", "t3"),
    });
    expect(toast).toEqual({
      title: "RCM: full history",
      message: '27% sure it is new, under 80%: opened t3 "The healthz route should answer HEAD"\nPart of an earlier task? /rcm move t1',
      variant: "warning",
    });
    expect(toast?.message).not.toContain("Not t3?");
  });

  it("decides a fallback matters only when more than one task has history and the kept candidates leave one out", () => {
    expect(fallbackChangesView({ ledger: ledgerOf("t1", "t1", "t1") })).toBe(false);
    expect(fallbackChangesView({ ledger: ledgerOf("t1", "t2") })).toBe(true);
    expect(fallbackChangesView({ ledger: ledgerOf("t1", "t2"), kept: ["t1", "t2"] })).toBe(false);
    expect(fallbackChangesView({ ledger: ledgerOf("t1", "t2", "t3"), kept: ["t1", "t3"] })).toBe(true);
    // A task with no request left (all moved away) has no history to keep.
    expect(fallbackChangesView({ ledger: { ...ledgerOf("t1", "t1"), tasks: [task("t1"), task("t2")] } })).toBe(false);
  });

  it("names the typed verb of the surface: /rcm-text move where the TUI part is not there", () => {
    const toast = routingToast({
      entry: entry({ confidence: 0.6 }),
      task: task("t3"),
      previous: "t3",
      threshold: THRESHOLD,
      ledger,
      moveCommand: "/rcm-text move",
    });
    expect(toast?.message).toContain("Not t3? /rcm-text move <task> (or new)");
  });

  it("shows a cue-led title by what it names", () => {
    const toast = routingToast({
      entry: entry({ opened: true }),
      task: task("t2", "separate thing: export_csv in src/export.py should quote fields"),
      previous: "t1",
      threshold: THRESHOLD,
      ledger,
    });
    expect(toast?.message).toBe('93% sure: "export_csv in src/export.py should quot…"');
  });
});
