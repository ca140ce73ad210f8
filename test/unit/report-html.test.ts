import { describe, expect, it } from "vitest";
import { CONFIDENCE_BINS } from "../../src/lab/bench/report-html/palette.js";
import { renderHtmlReport } from "../../src/lab/bench/report-html/render-html.js";
import { renderReport } from "../../src/lab/bench/results/render-report.js";
import type { ResultLine, TimelineEntry } from "../../src/lab/bench/run-dir/result-line.js";
import { resultLine } from "../support/result-line.js";

function line(extra: Partial<ResultLine> = {}): ResultLine {
  return resultLine(extra);
}

function entry(task: string, extra: Partial<TimelineEntry> = {}): TimelineEntry {
  return { task, stage: "s", continuation: false, call_input_tokens: [100, 150], ...extra };
}

const timeline = [entry("F"), entry("B"), entry("F", { continuation: true })];
const routed = [
  entry("F", { routed_to: "t1", confidence: 1, fallback: false }),
  entry("B", { routed_to: "t2", confidence: 0.55, fallback: true }),
  entry("F", { routed_to: "t1", confidence: 0.9, fallback: false, continuation: true }),
];
const results = [
  line({
    timeline,
    cache: { source: "simulated", input_tokens: 1000, cached_tokens: 800 },
    fidelity: [{ at: "resume", entry: 2, requirements: 2, verbatim: 2, cited: 0, context_tokens: 400, other_task_tokens: 300 }],
  }),
  line({
    mode: "full",
    timeline: routed,
    resolved: false,
    failure_class: "implementation",
    cache: { source: "simulated", input_tokens: 600, cached_tokens: 400 },
    fidelity: [{ at: "resume", entry: 2, requirements: 2, verbatim: 1, cited: 1, context_tokens: 100, other_task_tokens: 0 }],
  }),
  line({ session_id: "s0 <b>", condition: "uninterrupted", timeline: [entry("F"), entry("F")] }),
];

describe("report.html", () => {
  it("is one self-contained page with the three kinds of chart, the same bytes for the same results", () => {
    const html = renderHtmlReport(results, { title: "Run <x>" });
    expect(renderHtmlReport([...results], { title: "Run <x>" })).toBe(html);
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain("default-src 'none'");
    for (const kind of ["resolution", "timeline", "tokens"]) expect(html).toContain(`<svg class="chart ${kind}"`);
    expect(html).toContain("<h1>Run &lt;x&gt;</h1>");
    expect(html).toContain("s0 &lt;b&gt;");
    expect(html).not.toContain("s0 <b>");
  });

  it("draws a bar per mode and condition with the gap, a dot per request coloured by confidence, fallbacks ringed, a line per mode", () => {
    const html = renderHtmlReport(results, { title: "t" });
    expect(html.match(/<rect class="mark"/g)).toHaveLength(3);
    expect(html).toContain("gap 0.0 pts");
    expect(html).toContain("near 0.0 pts · far -");
    // full has no uninterrupted line: no gap.
    expect(html).toContain(">gap -<");
    expect(html.match(/<circle class="mark"/g)).toHaveLength(timeline.length + routed.length + 2);
    expect(html.match(/<circle class="fallback"/g)).toHaveLength(1);
    expect(html).toContain(`fill="${CONFIDENCE_BINS[0]?.colour}"`);
    expect(html).toContain(`fill="${CONFIDENCE_BINS[2]?.colour}"`);
    // Per session, input tokens per call by mode; at the top, the means per condition.
    expect(html).toContain("s1: input tokens (reported) per model call by mode");
    expect(html).toContain("switched sessions: mean input tokens (reported) per model call by mode");
    expect(html.match(/<polyline class="mark" data-mode="full"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it("shows fidelity and cache-aware cost in both reports, priced at the given ratio", () => {
    const markdown = renderReport(results, { title: "t", cacheReadPrice: 0.5 });
    expect(markdown).toContain("cached reads at 0.5x");
    // native: 200 + 800 x 0.5 = 600; full: 200 + 400 x 0.5 = 400, so 0.667x.
    expect(markdown).toContain("| native | switched | 1 | estimated | 1000 | 800 | 600 | 1.000x |");
    expect(markdown).toContain("| full | switched | 1 | estimated | 600 | 400 | 400 | 0.667x |");
    expect(markdown).toContain("| native | switched | 1 | 100.0% | 75.0% | 0 | - | - |");
    expect(markdown).toContain("| full | switched | 1 | 100.0% (50.0% cited) | 0.0% | 0 | - | - |");
    expect(renderHtmlReport(results, { title: "t", cacheReadPrice: 0.5 })).toContain("<td>0.667x</td>");
  });
});
