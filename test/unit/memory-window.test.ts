import { describe, expect, it } from "vitest";
import { messageTokens, planTokens } from "../../src/plugin/core/context/call-report.js";
import { buildCallView } from "../../src/plugin/core/context/call-view.js";
import { applyPlan, EMPTY_PLAN } from "../../src/plugin/core/context/context-plan.js";
import { compactionThreshold, stepUsages } from "../../src/plugin/core/context/model-window.js";
import { recordsForCompaction } from "../../src/plugin/core/context/records-for-compaction.js";
import { replaceCoveredExchanges } from "../../src/plugin/core/context/replace-covered-exchanges.js";
import { type InteractionGroup, toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import { renderRecord } from "../../src/plugin/core/memory/render-record.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Ledger } from "../../src/plugin/core/routing/ledger.js";
import { createCallBudgets } from "../../src/plugin/sessions/call-budgets.js";
import { newLiveSession } from "../../src/plugin/sessions/live-session.js";
import { activeTaskOf } from "../support/context.js";
import { KEEP_RECENT, RECORD_TOKENS } from "../support/defaults.js";
import { loadFixture, mainSession } from "../support/fixtures.js";
import { ledgerOf } from "../support/routing.js";

function record(task: string, groups: [string, ...string[]], constraints: string[], progress: string[] = []): TaskRecord {
  return {
    version: RECORD_VERSION,
    task,
    goal: `goal of ${task}`,
    constraints: constraints.map((text, n) => ({ id: `c${n + 1}`, text, sources: [groups[0]] })),
    progress: progress.map((text) => ({ text, sources: [groups[0]] })),
    pending: [],
    files: [],
    uncertainties: [],
    coverage: { through: groups[groups.length - 1] as string, groups },
    lastUpdate: { updater: "extractive", groups: groups.length, notes: [] },
  };
}

const userIDs = (messages: readonly MessageWithParts[]) => messages.filter((message) => message.info.role === "user").map((message) => message.info.id);
const isRecord = (message: MessageWithParts) => message.parts.some((part) => part.type === "text" && part.text.startsWith("<rcm-task-memory"));

describe("compactionThreshold: where OpenCode 1.18 compacts", () => {
  it("is the context less the output cap, the input limit less the reserve, and undefined without a context limit", () => {
    expect(compactionThreshold({ context: 16_000, output: 8_000 })).toBe(8_000);
    expect(compactionThreshold({ context: 200_000, output: 64_000 })).toBe(168_000);
    expect(compactionThreshold({ context: 200_000, output: 8_000, input: 100_000 })).toBe(92_000);
    expect(compactionThreshold({ context: 200_000, output: 8_000, input: 100_000 }, 5_000)).toBe(95_000);
    expect(compactionThreshold({ context: 0, output: 8_000 })).toBeUndefined();
  });
});

// After an automatic compaction: the summary (which kept only the latest request), an orphan
// step of "Dump the word list", the synthetic continue and its answer, then "Back to slugify".
const afterCompaction = loadFixture("auto-compaction").transformCalls[8] as MessageWithParts[];
const [, orphan, continuation, request] = toInteractionGroups(afterCompaction) as [InteractionGroup, InteractionGroup, InteractionGroup, InteractionGroup];
const firstRequest = userIDs(mainSession("auto-compaction"))[0] as string;
const dump = orphan.id.slice("orphan:".length);
const slugify: Ledger = ledgerOf([
  [firstRequest, "new:slugify"],
  [dump, "t1"],
  [request.id, "t1"],
]);
const REQUIREMENT = "It must lowercase the text and join words with hyphens";

function withBudget(budget: number | undefined, covered: TaskRecord, summaryText?: string) {
  const messages = summaryText === undefined ? afterCompaction : withSummary(afterCompaction, summaryText);
  const view = buildCallView({ messages, ledger: slugify });
  const active = activeTaskOf(messages, slugify, 0.8);
  if (active.kind !== "task") throw new Error(active.reason);
  const renderedRecord = renderRecord(covered, { title: "slugify", maxTokens: RECORD_TOKENS });
  const render = (maxTokens?: number) => (maxTokens === undefined ? renderedRecord : renderRecord(covered, { title: "slugify", maxTokens }));
  // A batch no history fills: only the window can make exchanges go.
  const { plan, note } = replaceCoveredExchanges({
    view,
    plan: EMPTY_PLAN,
    ledger: slugify,
    active,
    record: covered,
    render,
    keepRecent: KEEP_RECENT,
    batchTokens: 1_000_000,
    budget,
  });
  return { note, messages: applyPlan(messages, plan), tokens: planTokens(messages, plan), renderedRecord };
}

function withSummary(messages: readonly MessageWithParts[], text: string): MessageWithParts[] {
  return messages.map((message) =>
    message.info.role === "assistant" && message.info.summary === true
      ? { ...message, parts: message.parts.map((part) => (part.type === "text" ? { ...part, text: `${part.text}\n${text}` } : part)) }
      : message,
  );
}

describe("the record after a compaction, within the window's budget", () => {
  const covered = record(
    "t1",
    [firstRequest, dump, continuation.id],
    [REQUIREMENT],
    Array.from({ length: 30 }, (_, n) => `step ${n}: ran the tests of textkit/slugify.py, all passed`),
  );
  const native = afterCompaction.reduce((sum, message) => sum + messageTokens(message), 0);
  const exchanges = [...orphan.indices, ...continuation.indices]
    .filter((index) => afterCompaction[index]?.info.role !== "user")
    .reduce((sum, index) => sum + messageTokens(afterCompaction[index]), 0);

  it("goes in whole, replacing nothing, when the budget has room: the summary lost the requirement", () => {
    const result = withBudget(native * 10, covered);
    expect(result.note).toMatchObject({ recordShown: true, replacedGroups: 0 });
    expect(result.note.window).toBeUndefined();
    expect(result.messages.filter(isRecord)).toHaveLength(1);
  });

  it("replaces every covered exchange at once when only that makes room for it", () => {
    const whole = withBudget(undefined, covered);
    const budget = whole.tokens - 1;
    expect(budget).toBeGreaterThanOrEqual(whole.tokens - exchanges);
    const result = withBudget(budget, covered);
    // The orphan step goes; the continuation is among the two most recent groups, kept whole.
    expect(result.note).toMatchObject({ recordShown: true, replacedGroups: 1, window: "replaced all covered" });
    expect(result.tokens).toBeLessThanOrEqual(budget);
  });

  it("is trimmed to the room left, its constraints kept, when even that is not enough", () => {
    const whole = withBudget(undefined, covered);
    const budget = whole.tokens - exchanges - 200;
    const result = withBudget(budget, covered);
    expect(result.note).toMatchObject({ recordShown: true, window: "record trimmed" });
    expect(result.tokens).toBeLessThanOrEqual(budget);
    const shown = result.messages.find(isRecord);
    expect(JSON.stringify(shown)).toContain(REQUIREMENT);
    expect(JSON.stringify(shown).length).toBeLessThan(JSON.stringify(whole.messages.find(isRecord)).length);
  });

  it("changes nothing when no record fits: the call is native, never over the budget because of the memory", () => {
    const result = withBudget(native - exchanges + 10, covered);
    expect(result.note).toMatchObject({ recordShown: false, replacedGroups: 0, window: "no room" });
    expect(result.messages).toEqual(afterCompaction);
  });

  it("is not added on top of a summary that already carries every constraint", () => {
    const result = withBudget(undefined, covered, `Task t1: ${REQUIREMENT}.`);
    expect(result.note.recordShown).toBe(false);
    expect(result.messages.filter(isRecord)).toHaveLength(0);
    // One constraint the summary lacks is enough to show it.
    const more = record("t1", [firstRequest, dump, continuation.id], [REQUIREMENT, "Keep unicode letters"]);
    expect(withBudget(undefined, more, `Task t1: ${REQUIREMENT}.`).note.recordShown).toBe(true);
  });
});

// two-tasks-with-tool-error: A (slugify), B (changelog), back to A.
const history = mainSession("two-tasks-with-tool-error");
const [a1, b1, a2] = userIDs(history) as [string, string, string];
const twoTasks = ledgerOf([
  [a1, "new:slugify"],
  [b1, "new:changelog"],
  [a2, "t1", 0.93],
]);

describe("records in the compaction clone", () => {
  const render = (records: Record<string, TaskRecord>) => (task: string, maxTokens?: number) =>
    renderRecord(records[task] as TaskRecord, { title: task, maxTokens: maxTokens ?? RECORD_TOKENS });

  it("stand in place of the exchanges they cover, right before their task's first request; the requests stay", () => {
    const records = { t1: record("t1", [a1], ["Add slugify"]), t2: record("t2", [b1], ["Write the entry"]) };
    const view = buildCallView({ messages: history, ledger: twoTasks });
    const { plan, placed } = recordsForCompaction({ view, ledger: twoTasks, records, render: render(records) });
    const sent = applyPlan(history, plan);
    expect(placed).toEqual(["t1", "t2"]);
    expect(userIDs(history).every((id) => sent.some((message) => message.info.id === id))).toBe(true);
    const groups = toInteractionGroups(history);
    for (const id of [a1, b1]) {
      const group = groups.find((candidate) => candidate.id === id) as InteractionGroup;
      for (const index of group.indices) if (history[index]?.info.role === "assistant") expect(sent).not.toContain(history[index]);
    }
    const t1 = sent.findIndex((message) => isRecord(message) && JSON.stringify(message).includes('task=\\"t1\\"'));
    expect(sent[t1 + 1]?.info.id).toBe(a1);
  });

  it("leave out a record that replaces nothing and covers nothing older than this history", () => {
    const records = { t2: record("t2", [b1], ["Write the entry"]) };
    const view = buildCallView({ messages: history.slice(0, history.findIndex((message) => message.info.id === b1) + 1), ledger: twoTasks });
    const { placed } = recordsForCompaction({ view, ledger: twoTasks, records, render: render(records) });
    expect(placed).toEqual([]);
  });

  it("put a task summarized before at the top, only within the budget", () => {
    const ledger = ledgerOf([
      ["older", "new:older task"],
      [a1, "new:slugify"],
      [b1, "new:changelog"],
      [a2, "t2", 0.93],
    ]);
    const records = { t1: record("t1", ["older"], ["Keep the old rule"]) };
    const view = buildCallView({ messages: history, ledger });
    const roomy = recordsForCompaction({ view, ledger, records, render: render(records), budget: 1_000_000 });
    expect(roomy.appended).toEqual(["t1"]);
    expect(isRecord(applyPlan(history, roomy.plan)[0] as MessageWithParts)).toBe(true);
    const tight = recordsForCompaction({ view, ledger, records, render: render(records), budget: 10 });
    expect(tight.appended).toEqual([]);
  });
});

describe("call budgets: the window OpenCode compacts at, less what the plug-in does not see", () => {
  const assistant = (id: string, prompt: number, output: number, summary = false): MessageWithParts =>
    ({
      info: {
        id,
        sessionID: "s",
        role: "assistant",
        parentID: "u",
        summary,
        time: { created: 0 },
        modelID: "m",
        providerID: "p",
        mode: "build",
        agent: "build",
        path: { cwd: "/", root: "/" },
        cost: 0,
        tokens: { input: prompt, output, reasoning: 0, cache: { read: 0, write: 0 } },
      },
      parts: [],
    }) as unknown as MessageWithParts;
  const user = {
    info: { id: "u", sessionID: "s", role: "user", time: { created: 0 }, agent: "build", model: { providerID: "p", modelID: "m" } },
    parts: [],
  } as unknown as MessageWithParts;

  it("learns the overhead from the step that answered the last call, and keeps room for the largest recent output", async () => {
    const budgets = createCallBudgets(async () => 8_000);
    const session = newLiveSession("s");
    expect(await budgets.budget(session, [user])).toBe(8_000);
    budgets.sent(session, 1_000);
    // The provider read 3,000 for what the plug-in sent as 1,000: 2,000 it never sees.
    expect(await budgets.budget(session, [user, assistant("a1", 3_000, 500)])).toBe(8_000 - 2_000 - 500);
    budgets.sent(session, 1_500);
    // A summary teaches nothing (its call was the compaction's); the output room is the largest of the recent steps.
    expect(await budgets.budget(session, [user, assistant("a1", 3_000, 500), assistant("a2", 3_000, 100, true)])).toBe(8_000 - 2_000 - 500);
    expect(await budgets.budget(session, [user, assistant("a1", 3_000, 500), assistant("a3", 3_700, 900)])).toBe(8_000 - 2_200 - 900);
  });

  it("is undefined for a model without a known window", async () => {
    expect(await createCallBudgets(async () => undefined).budget(newLiveSession("s"), [user])).toBeUndefined();
  });

  it("reads the steps' usage, summaries left out", () => {
    expect(stepUsages([user, assistant("a1", 3_000, 500), assistant("a2", 9_000, 10, true)])).toEqual([{ prompt: 3_000, output: 500 }]);
  });
});
