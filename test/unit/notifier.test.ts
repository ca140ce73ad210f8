import { describe, expect, it } from "vitest";
import type { LedgerEntry, LedgerTask } from "../../src/core/routing/ledger.js";
import { routingToast } from "../../src/plugin/notifier.js";
import { THRESHOLD } from "../support/defaults.js";

const task = (id: string, title = "Fix the date parser"): LedgerTask => ({ id, title, openedBy: "m1" });
const entry = (extra: Partial<LedgerEntry>): LedgerEntry => ({ task: "t2", opened: false, confidence: 0.93, related: [], shared: false, reason: "r", router: "lexical", ...extra });

describe("routing toasts", () => {
  it("says when a request opens a task, but not for the session's first", () => {
    expect(routingToast({ entry: entry({ opened: true }), task: task("t2"), previous: "t1", threshold: THRESHOLD })).toEqual({
      title: "RCM: new task t2",
      message: '93% sure: "Fix the date parser"',
      variant: "info",
    });
    expect(routingToast({ entry: entry({ task: "t1", opened: true, confidence: 1 }), task: task("t1"), previous: undefined, threshold: THRESHOLD })).toBeUndefined();
  });

  it("says when a request switches task, and stays quiet on the same task or for a shared instruction", () => {
    expect(routingToast({ entry: entry({}), task: task("t2"), previous: "t1", threshold: THRESHOLD })?.title).toBe("RCM: switched to t2");
    expect(routingToast({ entry: entry({}), task: task("t2"), previous: "t2", threshold: THRESHOLD })).toBeUndefined();
    expect(routingToast({ entry: entry({ shared: true, confidence: 0.5 }), task: task("t2"), previous: "t1", threshold: THRESHOLD })).toBeUndefined();
  });

  it("warns when it is unsure and the model gets the full history, with a title short enough for a toast", () => {
    const long = "A very long request title that goes on and on about the exporter and the parser and the docs";
    const toast = routingToast({ entry: entry({ confidence: 0.55 }), task: task("t2", long), previous: "t2", threshold: THRESHOLD });
    expect(toast).toMatchObject({ title: "RCM: full history", variant: "warning" });
    expect(toast?.message).toMatch(/^55% sure, under 80%\. Best guess t2: ".{39}…"$/);
  });

  it("names the tasks an unsure decision kept under fallback candidates instead of claiming the full history", () => {
    const toast = routingToast({ entry: entry({ confidence: 0.6 }), task: task("t3"), previous: "t3", threshold: THRESHOLD, kept: ["t1", "t3"] });
    expect(toast).toMatchObject({ title: "RCM: unsure, kept t1, t3", variant: "warning" });
  });
});
