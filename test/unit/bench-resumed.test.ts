import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FaithfulDecision } from "../../src/lab/bench/agent/faithful-agent.js";
import type { Checkout } from "../../src/lab/bench/checkout/prepare-checkouts.js";
import type { SessionRun } from "../../src/lab/bench/drive/run-session.js";
import { mergeRuns } from "../../src/lab/bench/merge-runs.js";
import type { FinishedSession } from "../../src/lab/bench/metrics/metric.js";
import { mergePluginStates } from "../../src/lab/bench/metrics/plugin-state.js";
import { resumptionMetric } from "../../src/lab/bench/metrics/resumption.js";
import { resolutionChart } from "../../src/lab/bench/report-html/resolution-chart.js";
import { timelineChart } from "../../src/lab/bench/report-html/timeline-chart.js";
import { headline } from "../../src/lab/bench/results/headline.js";
import { renderReport } from "../../src/lab/bench/results/render-report.js";
import { gapTable, reportTables } from "../../src/lab/bench/results/report-tables.js";
import { type ExperimentRequest, openExperiment } from "../../src/lab/bench/run-dir/open-experiment.js";
import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";
import { requestText } from "../../src/lab/bench/suite/request-text.js";
import { openCodeSessionStarts, resumedSession, runSpecs } from "../../src/lab/bench/suite/resumed-sessions.js";
import { DEFAULT_CONDITIONS, FINALIZE, type SessionSpec, type Task } from "../../src/lab/bench/suite/schema.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { resultLine } from "../support/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

// The resumed condition: a switched session's twin whose focus comes back in a new OpenCode
// session, what of its earlier requirements reached that session, and the reports that show it
// only when a run has it.

const F = "f__f-1";
const entry = (task: string, stage: string) => ({ task, stage });
const uninterrupted: SessionSpec = {
  session_id: `${F}__uninterrupted`,
  focus: F,
  condition: "uninterrupted",
  locality: "near",
  interruptions: [],
  schedule: [entry(F, "stage-1"), entry(F, "stage-2"), entry(F, "stage-3"), entry(F, FINALIZE)],
};
const switched: SessionSpec = {
  session_id: `${F}__switched`,
  focus: F,
  condition: "switched",
  locality: "far",
  interruptions: ["b", "c"],
  schedule: [
    entry(F, "stage-1"),
    entry("b", "stage-1"),
    entry("c", "stage-1"),
    entry(F, "stage-2"),
    entry("b", "stage-2"),
    entry(F, "stage-3"),
    entry(F, FINALIZE),
  ],
};

describe("a resumed session, made from a switched one", () => {
  it("runs the focus's first stages, then every interruption in the switched order, then its last stage and finalize, in three OpenCode sessions", () => {
    const resumed = resumedSession(switched);
    expect(resumed).toEqual({
      session_id: `${F}__resumed`,
      focus: F,
      condition: "resumed",
      locality: "far",
      interruptions: ["b", "c"],
      schedule: [
        entry(F, "stage-1"),
        entry(F, "stage-2"),
        entry("b", "stage-1"),
        entry("c", "stage-1"),
        entry("b", "stage-2"),
        entry(F, "stage-3"),
        entry(F, FINALIZE),
      ],
    });
    // The projection onto the focus is still the uninterrupted schedule: same requests, same order.
    expect(resumed?.schedule.filter((one) => one.task === F)).toEqual(uninterrupted.schedule);
    expect(openCodeSessionStarts(resumed as SessionSpec)).toEqual([0, 2, 5]);
    expect(openCodeSessionStarts(switched)).toEqual([0]);
    expect(openCodeSessionStarts(uninterrupted)).toEqual([0]);
  });

  it("has none for a focus of one stage (nothing earlier to carry) nor for an uninterrupted session", () => {
    const oneStage: SessionSpec = { ...switched, schedule: [entry(F, "stage-1"), entry("b", "stage-1"), entry(F, FINALIZE)] };
    expect(resumedSession(oneStage)).toBeUndefined();
    expect(resumedSession(uninterrupted)).toBeUndefined();
  });

  it("is run only when asked: the default conditions run the suite's sessions exactly as listed", () => {
    const suite = [uninterrupted, switched];
    expect(runSpecs(suite, { conditions: DEFAULT_CONDITIONS })).toEqual(suite);
    expect(runSpecs(suite, { count: 1, conditions: DEFAULT_CONDITIONS })).toEqual([uninterrupted]);
    expect(runSpecs(suite, { conditions: ["uninterrupted", "switched", "resumed"] }).map((spec) => spec.session_id)).toEqual([
      `${F}__uninterrupted`,
      `${F}__switched`,
      `${F}__resumed`,
    ]);
    expect(runSpecs(suite, { conditions: ["resumed"] }).map((spec) => spec.condition)).toEqual(["resumed"]);
    // Of the first N suite sessions only: the switched one is past N here.
    expect(runSpecs(suite, { count: 1, conditions: ["resumed"] })).toEqual([]);
    expect(() => runSpecs([...suite, { ...uninterrupted, session_id: `${F}__resumed` }], { conditions: ["resumed"] })).toThrow(/rename it/);
  });
});

const task = {
  instance_id: F,
  stages: [
    { id: "stage-1", request: "Keep the old keys readable." },
    { id: "stage-2", request: "Reject empty names." },
    { id: "stage-3", request: "Add a strict flag." },
  ],
} as Task;
const workspace = `/run/sessions/${F}__resumed/native/ws2`;
const focus: Checkout = { task, workspace, name: "ws2" };
const resumed = resumedSession(switched) as SessionSpec;
const run: SessionRun = {
  opencodeSessionID: "ses3",
  opencodeSessionIDs: ["ses1", "ses2", "ses3"],
  requests: resumed.schedule.map((one, index) => ({
    entry: index,
    task: one.task,
    stage: one.stage,
    text: requestText(one.task === F ? workspace : `/run/sessions/${F}__resumed/native/ws${one.task === "b" ? 1 : 3}`, `${one.task} ${one.stage}`),
    continuation: false,
    timedOut: false,
    ms: 1,
  })),
  finalized: true,
  budgetExhausted: false,
  continuations: 0,
  wallMs: 10,
};
// The focus's request texts are the stages' own.
for (const request of run.requests)
  if (request.task === F && request.stage !== FINALIZE)
    request.text = requestText(workspace, task.stages.find((stage) => stage.id === request.stage)?.request ?? "");

function finished(overrides: Partial<FinishedSession>): FinishedSession {
  return {
    spec: resumed,
    run,
    messages: [],
    state: {},
    calls: [],
    decisions: [],
    checkouts: new Map([[F, focus]]),
    focus,
    agentKind: "faithful",
    threshold: 0.8,
    ...overrides,
  };
}

describe("what of the focus's earlier requirements reached the third session", () => {
  it("with the faithful agent: what its first write of the returning stage saw", () => {
    const decision: FaithfulDecision = {
      index: 20,
      workspace,
      task: F,
      stage: "stage-3",
      seen: ["stage-2"],
      lost: ["stage-1"],
      leaked: [],
      confusableSeen: [],
      wrote: "stage-3 without stage-1",
      files: ["a.py"],
    };
    expect(resumptionMetric.measure(finished({ decisions: [decision] }))).toEqual({
      opencode_session_ids: ["ses1", "ses2", "ses3"],
      requirements: ["stage-1", "stage-2"],
      carried: ["stage-2"],
      missed: ["stage-1"],
      seen_by: "rule phrase",
    });
  });

  it("from the recorded call: an earlier request word for word, or a record constraint citing it", () => {
    const back = run.requests.find((request) => request.task === F && request.stage === "stage-3")?.text ?? "";
    // As the plug-in renders a record: the user's asks numbered.
    const record = "<rcm-task-memory task=t1>\nAsked by the user (their words):\n1. Reject empty names.\n</rcm-task-memory>";
    const user = (id: string, text: string) => ({ info: { id, role: "user" }, parts: [{ type: "text", text }] }) as unknown as MessageWithParts;
    const messages = run.requests.map((request, index) => user(`msg${index}`, request.text));
    // The third session's first call: the record the plug-in resumed, then the request; stage-1 is in neither.
    const calls = [{ messages: [{ role: "user", content: `${record}\n${back}` }] }];
    const measured = resumptionMetric.measure(
      finished({ agentKind: "model", calls, messages, state: { constraints: [{ text: "Reject empty names.", sources: ["msg1"] }] } }),
    );
    expect(measured).toMatchObject({ carried: ["stage-2"], missed: ["stage-1"], seen_by: "request or cited record" });
    // Nothing recorded, no faithful decision: the sessions and requirements only.
    expect(resumptionMetric.measure(finished({ agentKind: "model" }))).toEqual({
      opencode_session_ids: ["ses1", "ses2", "ses3"],
      requirements: ["stage-1", "stage-2"],
    });
    expect(resumptionMetric.measure(finished({ spec: switched }))).toBeUndefined();
  });

  it("reads the three sessions' plug-in state as one: decisions by message id, constraints and memory costs added up", () => {
    const ledger = (id: string, task: string) => ({
      tasks: [],
      decisions: { [id]: { task, confidence: 1 } },
      order: [id],
    });
    const merged = mergePluginStates([
      { ledger: ledger("m1", "t1") as never, constraints: [{ text: "a", sources: ["m1"] }] },
      {},
      { ledger: ledger("m9", "t1") as never, constraints: [{ text: "b", sources: ["m9"] }], unreadable: "x: torn" },
    ]);
    expect(Object.keys(merged.ledger?.decisions ?? {})).toEqual(["m1", "m9"]);
    expect(merged.ledger?.order).toEqual(["m1", "m9"]);
    expect(merged.constraints?.map((constraint) => constraint.text)).toEqual(["a", "b"]);
    expect(merged.unreadable).toBe("x: torn");
    expect(mergePluginStates([{}, {}])).toEqual({});
  });
});

/** A run of two focuses in native and full: uninterrupted and switched resolved, the resumed native returns lose stage-1. */
function lines(withResumed: boolean): ResultLine[] {
  const make = (mode: ResultLine["mode"], condition: ResultLine["condition"], focusID: string, resolved: boolean, extra: Partial<ResultLine> = {}) =>
    resultLine({
      session_id: `${focusID}__${condition}`,
      focus: focusID,
      mode,
      condition,
      resolved,
      failure_class: resolved ? "resolved" : "implementation",
      ...extra,
    });
  const base = (["native", "full"] as const).flatMap((mode) =>
    ["a", "b"].flatMap((focusID) => [make(mode, "uninterrupted", focusID, true), make(mode, "switched", focusID, true)]),
  );
  if (!withResumed) return base;
  const back = (mode: ResultLine["mode"], focusID: string, carried: string[]) =>
    make(mode, "resumed", focusID, carried.length === 1, {
      resumption: {
        opencode_session_ids: ["s1", "s2", "s3"],
        requirements: ["stage-1"],
        carried,
        missed: carried.length === 1 ? [] : ["stage-1"],
        seen_by: "rule phrase",
      },
      ...(carried.length === 1 ? {} : { focus_write: { wrote: "stage-2 without stage-1", lost: ["stage-1"], leaked: [] } }),
    });
  return [...base, back("native", "a", []), back("native", "b", []), back("full", "a", ["stage-1"]), back("full", "b", [])];
}

describe("the reports", () => {
  it("show nothing of the condition in a run without it", () => {
    const old = lines(false);
    const tables = reportTables(old, { cacheReadPrice: 0.1 });
    expect(tables.map((table) => table.id)).not.toContain("resumed");
    expect(tables.find((table) => table.id === "resolution")?.header).toEqual([
      "mode",
      "uninterrupted",
      "switched",
      "gap (pts)",
      "near gap",
      "far gap",
      "recovers native's gap",
    ]);
    expect(gapTable(old).header).toHaveLength(8);
    expect(gapTable(old).note).toBeUndefined();
    expect(headline(old)).not.toContain("Resumed");
    expect(resolutionChart(old).match(/<rect class="mark"/g)).toHaveLength(4);
    expect(renderReport(old, { title: "t" })).not.toMatch(/resumed\b(?!-focus)/);
  });

  it("give each mode's resumed resolution, the requirements its returns carried, and per session what was carried and missed", () => {
    const results = lines(true);
    const gap = gapTable(results);
    expect(gap.header.slice(-3)).toEqual(["resumed", "resumed: requirements carried", "resumed: lost requirement"]);
    // The resumed cells come after the old ones: rows read as before up to them.
    expect(gap.rows).toEqual([
      ["native", "100.0% (2/2)", "100.0% (2/2)", "0.0", "-", "0", "0", "0", "0.0% (0/2)", "0/2 (0.0%)", "2"],
      ["full", "100.0% (2/2)", "100.0% (2/2)", "0.0", "-", "0", "0", "0", "50.0% (1/2)", "1/2 (50.0%)", "1"],
    ]);
    const markdown = renderReport(results, { title: "t" });
    expect(markdown).toContain("| native | 100.0% (2/2) | 100.0% (2/2) | 0.0 | 0.0 | - | - | 0.0% (0/2) | 0/2 (0.0%) |");
    expect(markdown).toContain("## Resumed: what reached the focus's return in a new session");
    expect(markdown).toContain("| a__resumed | native | no | stage-1 | none | stage-1 | rule phrase |");
    expect(markdown).toContain("| a__resumed | full | yes | stage-1 | stage-1 | none | rule phrase |");
    expect(markdown).toContain("| native | resumed | 0 | 2 | 2 | 0 | 0 |");
    expect(headline(results)).toContain(
      "Resumed the next day (the focus's last stage in a new OpenCode session): native 0.0% (requirements carried 0/2 (0.0%)), full 50.0% (requirements carried 1/2 (50.0%)).",
    );
    expect(resolutionChart(results).match(/<rect class="mark"/g)).toHaveLength(6);
    // A resumed run's timeline marks where its second and third OpenCode sessions start; other runs' have no such mark.
    const timeline = [F, "b", "c", F, F].map((taskID, index) => ({
      task: taskID,
      stage: index === 4 ? FINALIZE : "stage-1",
      continuation: false,
      call_input_tokens: [10],
    }));
    const back = results.find((line) => line.condition === "resumed");
    expect(timelineChart({ ...(back as ResultLine), focus: F, timeline }).match(/class="new-session"/g)).toHaveLength(2);
    expect(timelineChart({ ...(back as ResultLine), condition: "switched", focus: F, timeline })).not.toContain("new-session");
    expect(resolutionChart(results)).toContain('data-condition="resumed"');
  });
});

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-resumed");
});
afterEach(async () => temp.remove());

describe("run.json", () => {
  const request = (conditions?: ExperimentRequest["conditions"]): ExperimentRequest => ({
    suiteDir: "/suites/mini",
    setting: {
      suite: "mini",
      suite_sha256: "a".repeat(64),
      agent: "faithful",
      regime: "roomy",
      seed: 1,
      budget_ms: 1,
      max_continuations: 0,
      test_timeout_ms: 1,
      confidence_threshold: 0.8,
      fallback: "full",
      plugin_version: "0.1.0",
      env: "local",
    },
    agent: { kind: "faithful" },
    modes: ["native"],
    sessions: 2,
    conditions,
    runsPlanned: (modes, sessions, asked) => modes.length * sessions * (asked.includes("resumed") ? 1.5 : 1),
  });

  it("names the conditions only when they are not the default, and a rerun that adds resumed says so", async () => {
    const out = join(temp.path, "run");
    await mkdir(out);
    await openExperiment(out, request());
    const before = JSON.parse(await readFile(join(out, "run.json"), "utf8"));
    expect(before.conditions).toBeUndefined();
    expect(before.runs_planned).toBe(2);
    const grown = await openExperiment(out, request(["uninterrupted", "switched", "resumed"]));
    expect(grown.added).toEqual(["conditions resumed"]);
    const after = JSON.parse(await readFile(join(out, "run.json"), "utf8"));
    expect(after.conditions).toEqual(["uninterrupted", "switched", "resumed"]);
    expect(after.runs_planned).toBe(3);
    expect(after.extended).toEqual([{ modes: [], sessions: 2, conditions: ["resumed"] }]);
    // Asking for fewer keeps what the run holds.
    expect((await openExperiment(out, request(["resumed"]))).run.conditions).toEqual(["uninterrupted", "switched", "resumed"]);
  });
});

describe("bench merge of shards with resumed sessions", () => {
  const setting = {
    suite: "mini",
    suite_sha256: "a".repeat(64),
    agent: "faithful" as const,
    regime: "roomy",
    seed: 1,
    budget_ms: 1,
    max_continuations: 0,
    test_timeout_ms: 1,
    confidence_threshold: 0.8,
    fallback: "full" as const,
    plugin_version: "0.1.0",
    env: "local",
  };
  async function shard(name: string, index: number, sessions: string[], conditions: string[]): Promise<string> {
    const dir = join(temp.path, name);
    await mkdir(dir, { recursive: true });
    const run = {
      suite: "/s",
      setting,
      agent: { kind: "faithful" },
      modes: ["native"],
      sessions: 2,
      conditions,
      shard: `${index}/2`,
      runs_planned: sessions.length,
    };
    await writeFile(join(dir, "run.json"), JSON.stringify(run));
    const lines = sessions.map((id) => resultLine({ session_id: id, condition: id.endsWith("resumed") ? "resumed" : "switched", setting }));
    await writeFile(join(dir, "results.jsonl"), lines.map((one) => `${JSON.stringify(one)}\n`).join(""));
    return dir;
  }
  const all = ["uninterrupted", "switched", "resumed"];

  it("adds up the shards' planned runs (not sessions x modes) and keeps the conditions; refuses shards of other conditions", async () => {
    const one = await shard("one", 1, ["f__uninterrupted", "f__resumed"], all);
    const two = await shard("two", 2, ["f__switched"], all);
    const out = join(temp.path, "merged");
    await mergeRuns({ runs: [one, two], out });
    const merged = JSON.parse(await readFile(join(out, "run.json"), "utf8"));
    expect(merged).toMatchObject({ conditions: all, runs_planned: 3 });
    const other = await shard("other", 2, ["f__switched"], ["uninterrupted", "switched"]);
    await expect(mergeRuns({ runs: [one, other], out: join(temp.path, "m2") })).rejects.toThrow(/conditions/);
  });
});
