import { MODES } from "../../../plugin/config/modes.js";
import { escapeHtml } from "../../svg/svg-kit.js";
import { DEFAULT_CACHE_READ_PRICE } from "../metrics/cache-cost.js";
import { headline } from "../results/headline.js";
import { describeRouting, type ReportOptions } from "../results/render-report.js";
import { type ReportTable, reportTables } from "../results/report-tables.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { CONDITIONS } from "../suite/schema.js";
import { CONFIDENCE_BINS, type ConfidenceBin, confidenceBins } from "./palette.js";
import { resolutionChart } from "./resolution-chart.js";
import { timelineChart, timelineLegend } from "./timeline-chart.js";
import { meanTokensChart, sessionTokensChart } from "./tokens-chart.js";

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111827; margin: 24px auto; max-width: 1180px; padding: 0 16px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 30px; border-bottom: 1px solid #e5e7eb; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 12.5px; }
th, td { border: 1px solid #e5e7eb; padding: 3px 8px; text-align: right; } th { background: #f9fafb; }
td:first-child, td:nth-child(2), th:first-child, th:nth-child(2) { text-align: left; }
p.note { color: #4b5563; font-size: 12.5px; max-width: 900px; }
svg.chart { display: block; margin: 6px 0; font-family: system-ui, sans-serif; overflow: visible; }
svg text { fill: #111827; }
details { border: 1px solid #e5e7eb; border-radius: 6px; padding: 6px 12px; margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 10px 28px; align-items: flex-start; }
`;

/** What the token charts draw, and what a drop in them means. */
const TOKENS_NOTE =
  "Each model call's input tokens as reported (cached included), in order across the session's requests. Lines that lie on each other are drawn in alternating dashes and named in the legend \"same as\" (identical) or \"overlaps\" another mode's. A sharp drop is a compaction, marked by a dashed line and a triangle in the mode's colour: OpenCode had a call write a summary of the history so far, and the calls after it get the summary and a recent tail instead of the whole history. A call the provider refused as too long (what makes OpenCode compact early) reports 0 input tokens.";

/**
 * `report.html`: one self-contained page (inline CSS and SVG, no script, nothing fetched)
 * with the report's tables and charts: resolution with the gap, input tokens per model call
 * by mode, and per session a request timeline for each mode, lane per task.
 */
export function renderHtmlReport(results: readonly ResultLine[], options: ReportOptions): string {
  const tables = reportTables(results, { cacheReadPrice: options.cacheReadPrice ?? DEFAULT_CACHE_READ_PRICE });
  const table = (id: string) => tables.find((candidate) => candidate.id === id);
  // Confidence is coloured against the plug-in's own threshold in the run.
  const bins = options.confidenceThreshold === undefined ? CONFIDENCE_BINS : confidenceBins(options.confidenceThreshold);
  const parts = [
    ...pageHead(options),
    `<p class="headline"><strong>${escapeHtml(headline(results))}</strong></p>`,
    `<p>${escapeHtml(describeRouting(options))}</p>`,
    `<p>${results.length} session runs.</p>`,
    '<h2 id="resolution">Resolution</h2>',
    resolutionChart(results),
    note(table("resolution")),
    tableHtml(table("resolution")),
    section(table("resumed")),
    '<h2 id="tokens">Input tokens per model call (reported)</h2>',
    `<p class="note">${escapeHtml(TOKENS_NOTE)}</p>`,
    '<div class="charts">',
    ...CONDITIONS.filter((condition) => results.some((line) => line.condition === condition)).map((condition) => meanTokensChart(results, condition)),
    "</div>",
    ...["cache-cost", "fidelity", "cost", "failures"].map((id) => section(table(id))),
    '<h2 id="sessions">Sessions</h2>',
    '<p class="note">Each request of the session in order, a lane per task (the focus first), for each mode; hover a dot for its routing decision. Input tokens (reported) per model call on the right, compactions marked.</p>',
    timelineLegend(bins),
    ...sessions(results, bins),
    "</body></html>",
  ];
  return `${parts.filter((part) => part !== "").join("\n")}\n`;
}

/** A report page's start: a self-contained document (nothing fetched), its title, and the run's setting under it. */
export function pageHead(options: { title: string; setting?: string | undefined; host?: string | undefined }): string[] {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(options.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(options.title)}</h1>`,
    options.setting ? `<p class="setting">${escapeHtml(options.setting)}</p>` : "",
    options.host ? `<p class="setting">${escapeHtml(options.host)}</p>` : "",
  ];
}

function sessions(results: readonly ResultLine[], bins: readonly ConfidenceBin[]): string[] {
  const ids = [...new Set(results.map((line) => line.session_id))].sort();
  // The page shows one timeline without a click: the first session with a fallback, else the first switched one.
  const has = (test: (line: ResultLine) => boolean) => ids.find((id) => results.some((line) => line.session_id === id && test(line)));
  const opened = has((line) => line.timeline?.some((entry) => entry.fallback) ?? false) ?? has((line) => line.condition === "switched") ?? ids[0];
  return ids.map((id) => {
    const runs = MODES.flatMap((mode) => results.filter((line) => line.session_id === id && line.mode === mode));
    const first = runs[0] as ResultLine;
    const outcomes = runs.map((line) => `${line.mode}: ${line.resolved ? "resolved" : `failed (${line.failure_class})`}`).join(", ");
    return [
      `<details${id === opened ? " open" : ""}><summary>${escapeHtml(id)}: ${first.condition}, ${first.locality}; ${escapeHtml(outcomes)}</summary>`,
      '<div class="charts"><div>',
      ...runs.map((run) => timelineChart(run, bins)),
      "</div>",
      sessionTokensChart(runs),
      "</div></details>",
    ].join("\n");
  });
}

function section(table: ReportTable | undefined): string {
  if (!table) return "";
  return [`<h2 id="${table.id}">${escapeHtml(table.heading)}</h2>`, note(table), tableHtml(table)].filter(Boolean).join("\n");
}

function note(table: ReportTable | undefined): string {
  return table?.note ? `<p class="note">${escapeHtml(table.note)}</p>` : "";
}

export function tableHtml(table: ReportTable | undefined): string {
  if (!table) return "";
  const head = `<tr>${table.header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join("")}</tr>`;
  const rows = table.rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`);
  return `<table class="${table.id}">\n${[head, ...rows].join("\n")}\n</table>`;
}
