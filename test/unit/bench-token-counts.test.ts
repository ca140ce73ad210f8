import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import type { SentRequest } from "../../src/lab/bench/drive/run-session.js";
import { simulatedCacheTokens } from "../../src/lab/bench/metrics/cache-cost.js";
import { sessionUsage } from "../../src/lab/bench/metrics/session-usage.js";
import { sessionTimeline } from "../../src/lab/bench/metrics/timeline.js";
import { renderHtmlReport } from "../../src/lab/bench/report-html/render-html.js";
import { sessionTokensChart } from "../../src/lab/bench/report-html/tokens-chart.js";
import { renderReport } from "../../src/lab/bench/results/render-report.js";
import { readResults } from "../../src/lab/bench/run-dir/read-results.js";
import type { ResultLine, TimelineEntry } from "../../src/lab/bench/run-dir/result-line.js";
import { CHARS_PER_TOKEN } from "../../src/plugin/core/memory/estimate-tokens.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { mainSession } from "../support/fixtures.js";
import { resultLine } from "../support/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

// One token count per meaning: input (cached included), cached and output, each said to be
// reported (the model's own counts through OpenCode) or estimated (the prefix-cache simulation).

const aux = { calls: 1, inputTokens: 40, outputTokens: 8, ms: 30 };
const usage = { inputTokens: 1000, outputTokens: 50, cachedInputTokens: 700, cacheWriteTokens: 100, modelCalls: 4, toolCalls: 2 };
const resumed = { inputTokens: 400, outputTokens: 20, cachedInputTokens: 300, cacheWriteTokens: 0, modelCalls: 2, toolCalls: 1 };

function line(extra: Partial<ResultLine>): ResultLine {
  return resultLine({ usage, resumed_focus: resumed, aux, resumed_focus_aux: aux, ...extra });
}

function entry(task: string, extra: Partial<TimelineEntry> = {}): TimelineEntry {
  return { task, stage: "s", continuation: false, call_input_tokens: [100, 150], ...extra };
}

/** The table under a report.md heading: its header row and rows, cells trimmed. */
function markdownTable(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`## ${heading}`);
  const next = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return section
    .split("\n")
    .filter((text) => text.startsWith("|") && !text.startsWith("| ---"))
    .map((text) =>
      text
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

describe("the cost table", () => {
  it("names each count by its meaning and says it is reported: input with its cached part, resumed-focus input and output apart", () => {
    const markdown = renderReport([line({})], { title: "t" });
    const [header, row] = markdownTable(markdown, "Cost per session");
    expect(header).toEqual([
      "mode",
      "condition",
      "n",
      "input (reported)",
      "cached (reported)",
      "cache write (reported)",
      "output (reported)",
      "model calls",
      "tool calls",
      "resumed-focus input (reported)",
      "resumed-focus output (reported)",
      "resumed-focus calls",
      "aux calls",
      "aux input (reported)",
      "aux output (reported)",
    ]);
    expect(row).toEqual(["native", "switched", "1", "1000", "700", "100", "50", "4", "2", "400", "20", "2", "1", "40", "8"]);
    expect(markdown).toContain("input: every prompt token, cached included");
  });

  it("says the cache table's counts are estimated when simulated and reported when the provider's, and how they were estimated", () => {
    const simulated = renderReport([line({ cache: { source: "simulated", input_tokens: 3000, cached_tokens: 2000 } })], { title: "t" });
    const [header, row] = markdownTable(simulated, "Cache-aware input cost");
    expect(header).toEqual(["mode", "condition", "n", "source", "input (estimated)", "cached (estimated: simulated prefix cache)", "cost", "vs native"]);
    expect(row?.slice(0, 6)).toEqual(["native", "switched", "1", "estimated", "3000", "2000"]);
    expect(simulated).toContain(`at ${CHARS_PER_TOKEN} characters per token`);
    const provider = renderReport([line({ cache: { source: "provider", input_tokens: 1000, cached_tokens: 700 } })], { title: "t" });
    expect(markdownTable(provider, "Cache-aware input cost")[0]?.slice(3, 6)).toEqual(["source", "input (reported)", "cached (reported)"]);
    // The provider's cache counts are the cost table's, under the same names.
    expect(markdownTable(provider, "Cache-aware input cost")[1]?.slice(3, 6)).toEqual(["reported", "1000", "700"]);
  });

  it("uses the same names in report.html", () => {
    const html = renderHtmlReport([line({ cache: { source: "simulated", input_tokens: 3000, cached_tokens: 2000 } })], { title: "t" });
    for (const name of [
      "input (reported)",
      "cached (reported)",
      "output (reported)",
      "resumed-focus input (reported)",
      "input (estimated)",
      "cached (estimated: simulated prefix cache)",
    ]) {
      expect(html).toContain(`<th>${name}</th>`);
    }
  });
});

describe("old results.jsonl lines", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir("rcm-token-names");
  });
  afterEach(() => temp.remove());

  it("read with input counting its cached part, from the uncached input and cacheReadTokens they stored", async () => {
    const { usage: _usage, resumed_focus: _resumed, ...rest } = line({});
    const old = {
      ...rest,
      usage: { inputTokens: 200, outputTokens: 50, cacheReadTokens: 700, cacheWriteTokens: 100, modelCalls: 4, toolCalls: 2 },
      resumed_focus: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 300, cacheWriteTokens: 0, modelCalls: 2, toolCalls: 1 },
    };
    const file = join(temp.path, "results.jsonl");
    await writeFile(file, `${JSON.stringify(old)}\n${JSON.stringify(line({ session_id: "s2" }))}\n`);
    const [first, second] = await readResults(file);
    expect(first?.usage).toEqual(usage);
    expect(first?.resumed_focus).toEqual(resumed);
    expect(second?.usage).toEqual(usage);
  });
});

interface RecordedRun {
  requests: SentRequest[];
  calls: { role: string; content?: string }[][];
  messages: MessageWithParts[];
}

describe("reported and estimated input of the same session", () => {
  it("differ by the tool definitions, which only the estimate counts, and by 3.5 against 4 characters per token", () => {
    const recorded = JSON.parse(readFileSync(join(packageRoot(), "fixtures", "model-calls", "bench-small-switched.json"), "utf8")) as {
      system: string;
      tools: unknown[];
      runs: { router: RecordedRun };
    };
    const run = recorded.runs.router;
    const bodies = run.calls.map((messages) => ({ tools: recorded.tools, messages: [{ role: "system", content: recorded.system }, ...messages] }));
    const reported = sessionUsage({ messages: run.messages, requests: run.requests, focus: "minitext__minitext-1", firstFocusStage: "s1" }).session.inputTokens;
    // The scripted model reports the characters of the messages as JSON over 4, tools left out...
    expect(reported).toBe(bodies.reduce((sum, body) => sum + Math.ceil(JSON.stringify(body.messages).length / 4), 0));
    // ...the simulation counts the tools on every call too, at 3.5 characters per token.
    const estimated = simulatedCacheTokens(bodies).input_tokens;
    const toolTokens = (JSON.stringify(recorded.tools).length / CHARS_PER_TOKEN) * bodies.length;
    expect(estimated).toBeGreaterThan(3 * reported);
    expect(Math.abs(estimated - toolTokens - (reported * 4) / CHARS_PER_TOKEN) / estimated).toBeLessThan(0.03);
  });
});

describe("compactions", () => {
  const messages = mainSession("auto-compaction");
  const requests: SentRequest[] = [
    { entry: 0, task: "A", stage: "s1", text: "t", continuation: false, timedOut: false, ms: 1 },
    { entry: 1, task: "A", stage: "s2", text: "t", continuation: false, timedOut: false, ms: 1 },
    { entry: 2, task: "A", stage: "s3", text: "t", continuation: false, timedOut: false, ms: 1 },
  ];

  it("are found in the stored history: the call that wrote OpenCode's summary, by its position in the request's calls", () => {
    const { timeline } = sessionTimeline({ messages, requests, threshold: 0.8 });
    expect(timeline.map((one) => one.compactions)).toEqual([undefined, [2], undefined]);
    // The summary call's input is the compaction prompt: the drop the chart marks.
    const calls = timeline[1]?.call_input_tokens ?? [];
    expect(calls[2]).toBeLessThan(calls[1] ?? 0);
  });

  it("are marked on the token chart where they happened, with compaction in the legend", () => {
    const { timeline } = sessionTimeline({ messages, requests, threshold: 0.8 });
    const chart = sessionTokensChart([line({ timeline })]);
    expect(chart.match(/<line class="compaction" data-mode="native"/g)).toHaveLength(1);
    expect(chart).toContain("native: OpenCode compacted at model call 6");
    expect(chart).toContain(">compaction</text>");
    expect(sessionTokensChart([line({ timeline: [entry("A")] })])).not.toContain("compaction");
    // In the tight regime the provider refuses the call that overflows: 0 input tokens, then the summary call.
    const refused = sessionTokensChart([line({ timeline: [entry("A"), entry("A", { call_input_tokens: [0, 3935, 4723], compactions: [1] })] })]);
    expect(refused).toContain("native: OpenCode compacted at model call 4 (the call before, refused as too long, reports 0 input tokens)");
  });
});

describe("report.html", () => {
  const same = [entry("F"), entry("B"), entry("F")];
  const results = [
    line({ timeline: same }),
    line({ mode: "router", timeline: same }),
    line({
      mode: "memory",
      timeline: same.map((one) => ({ ...one, routed_to: "t1", confidence: 0.5, fallback: true })),
      resolved: false,
      failure_class: "implementation",
    }),
  ];

  it("draws every mode of a token chart: coinciding lines dashed in turns and named as the same", () => {
    const chart = sessionTokensChart(results);
    expect(chart).toContain(">router (same as native)</text>");
    expect(chart).toContain(">memory (same as native)</text>");
    expect(chart.match(/stroke-dasharray="7 14"/g)).toHaveLength(3);
    for (const offset of [0, 7, 14]) expect(chart).toContain(`stroke-dashoffset="${offset}"`);
    // A line a few tokens off another's lies on it all the same: drawn in turns too.
    const near = sessionTokensChart([
      line({ timeline: same }),
      line({ mode: "full", timeline: same.map((one) => ({ ...one, call_input_tokens: [99, 151] })) }),
    ]);
    expect(near).toContain(">full (overlaps native)</text>");
    expect(near.match(/stroke-dasharray="7 7"/g)).toHaveLength(2);
    const apart = sessionTokensChart([
      line({ timeline: same }),
      line({ mode: "full", timeline: same.map((one) => ({ ...one, call_input_tokens: [50, 60] })) }),
    ]);
    expect(apart).not.toContain("stroke-dasharray");
  });

  it("draws no routing for memory, names a failure by its class, and says what near and far are", () => {
    const html = renderHtmlReport(results, { title: "t" });
    // Memory's decisions only file its records: grey dots, no fallback rings.
    expect(html).not.toContain('<circle class="fallback"');
    expect(html).not.toContain('data-confidence="0.5"');
    expect(html).toContain("native: resolved, router: resolved, memory: failed (implementation)");
    const near = "near: an interrupting task's reference patch changes source files in a directory where the focus task's patch does";
    expect(html).toContain(near);
    expect(renderReport(results, { title: "t" })).toContain(near);
  });
});
