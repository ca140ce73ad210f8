import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { reportCall } from "../../src/plugin/core/context/call-report.js";
import { activeTask, buildCallView } from "../../src/plugin/core/context/call-view.js";
import { EMPTY_PLAN, withDropped, withInsertedBefore } from "../../src/plugin/core/context/context-plan.js";
import { narrowToTask } from "../../src/plugin/core/context/narrow-to-task.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { cachedGroupTokens } from "../../src/plugin/handlers/group-token-cache.js";
import { callHead } from "../../src/plugin/session-views/render-status.js";
import { newLiveSession } from "../../src/plugin/sessions/live-session.js";
import { mainSession } from "../support/fixtures.js";
import { ledgerOf } from "../support/routing.js";

const history = mainSession("two-tasks-with-tool-error");
const ids = history.filter((message) => message.info.role === "user").map((message) => message.info.id) as [string, string, string];

describe("the report of one model call", () => {
  it("tallies each task's groups, counts what narrowing left out, and is not a fallback when narrowed", () => {
    const ledger = ledgerOf([
      [ids[0], "new:slugify"],
      [ids[1], "new:changelog"],
      [ids[2], "t1", 0.93],
    ]);
    const view = buildCallView({ messages: history, ledger });
    const { plan, note } = narrowToTask({ view, ledger, plan: EMPTY_PLAN, threshold: 0.8, fallback: "full" });
    const report = reportCall({ view, active: activeTask(view, 0.8), narrowed: plan, final: plan, narrowingReason: note.reason });
    expect(report).toMatchObject({
      fallback: false,
      reason: "task t1",
      task: "t1",
      confidence: 0.93,
      messagesBefore: history.length,
      messagesAfter: history.length - plan.dropped.size,
    });
    expect(report.groups).toEqual([
      { label: "t1", kept: 2, dropped: 0, replaced: 0 },
      { label: "t2", kept: 0, dropped: 1, replaced: 0 },
    ]);
    expect(report.tokens.routingSaved).toBeGreaterThan(0);
    expect(report.tokens.routingSaved).toBeLessThan(report.tokens.native);
    expect(report.tokens.memorySaved).toBe(0);
  });

  it("is no fallback below the threshold when fallback candidates left a task out, and says which tasks it kept", () => {
    const ledger = ledgerOf([
      [ids[0], "new:slugify"],
      [ids[1], "new:changelog"],
      [ids[2], "t1", 0.6, { candidates: ["t1"] }],
    ]);
    const view = buildCallView({ messages: history, ledger });
    const { plan, note } = narrowToTask({ view, ledger, plan: EMPTY_PLAN, threshold: 0.8, fallback: "candidates" });
    const report = reportCall({ view, active: activeTask(view, 0.8), narrowed: plan, final: plan, narrowingReason: note.reason });
    expect(report).toMatchObject({ fallback: false, reason: "confidence 0.6 below 0.8, kept t1", task: "t1", confidence: 0.6 });
    expect(callHead({ ...DEFAULT_OPTIONS, mode: "router" }, report)).toBe(
      "the tasks it could be (best guess t1, 60% sure): confidence 0.6 below 0.8, kept t1.",
    );
  });

  it("is a fallback below the threshold, saying why, and leaves the plug-in's own answers out of the tally", () => {
    const ledger = ledgerOf([
      [ids[0], "new:slugify"],
      [ids[1], "new:changelog"],
      [ids[2], "t1", 0.5],
    ]);
    const note = {
      info: { ...history[0]!.info, id: "msg_note" },
      parts: [{ id: "prt_note", sessionID: "s", messageID: "msg_note", type: "text", text: "opencode-rcm: status", ignored: true }],
    } as MessageWithParts;
    const messages = [...history.slice(0, -1), note, ...history.slice(-1)];
    const view = buildCallView({ messages, ledger });
    const report = reportCall({ view, active: activeTask(view, 0.8), narrowed: EMPTY_PLAN, final: EMPTY_PLAN });
    expect(report).toMatchObject({ fallback: true, reason: "confidence 0.5 below 0.8", task: "t1", confidence: 0.5 });
    expect(report.groups.map((tally) => tally.label)).toEqual(["t1", "t2"]);
    expect(report.tokens.routingSaved).toBe(0);
  });

  it("counts what the record replaced, net of the record itself", () => {
    const ledger = ledgerOf([
      [ids[0], "new:slugify"],
      [ids[1], "new:changelog"],
      [ids[2], "t1", 0.93],
    ]);
    const view = buildCallView({ messages: history, ledger });
    const exchange = view.groups[0]!.indices.filter((index) => history[index]?.info.role === "assistant");
    const record = {
      info: { ...history[0]!.info, id: "msg_record" },
      parts: [{ id: "prt_r", sessionID: "s", messageID: "msg_record", type: "text", text: "x".repeat(35), synthetic: true }],
    } as MessageWithParts;
    const final = withInsertedBefore(withDropped(EMPTY_PLAN, exchange), exchange[0]!, record);
    const report = reportCall({ view, active: activeTask(view, 0.8), narrowed: EMPTY_PLAN, final });
    expect(report.groups.find((tally) => tally.label === "t1")).toMatchObject({ replaced: 1 });
    expect(report.tokens.memorySaved).toBe(
      reportCall({ view, active: activeTask(view, 0.8), narrowed: EMPTY_PLAN, final: withDropped(EMPTY_PLAN, exchange) }).tokens.memorySaved - 10,
    );
    expect(report.messagesAfter).toBe(history.length - exchange.length + 1);
  });

  it("gives the same figures with the plug-in's cached group sizes, call after call", () => {
    const ledger = ledgerOf([
      [ids[0], "new:slugify"],
      [ids[1], "new:changelog"],
      [ids[2], "t1", 0.93],
    ]);
    const view = buildCallView({ messages: history, ledger });
    const { plan } = narrowToTask({ view, ledger, plan: EMPTY_PLAN, threshold: 0.8, fallback: "full" });
    const plain = reportCall({ view, active: activeTask(view, 0.8), narrowed: plan, final: plan });
    const groupTokens = cachedGroupTokens(newLiveSession("ses"));
    for (let call = 0; call < 3; call += 1) {
      expect(reportCall({ view, active: activeTask(view, 0.8), narrowed: plan, final: plan, groupTokens }).tokens).toEqual(plain.tokens);
    }
  });
});
