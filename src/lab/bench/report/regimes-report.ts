import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { escapeHtml } from "../../svg/svg-kit.js";
import { pageHead, tableHtml } from "../report-html/render-html.js";
import { resolutionChart } from "../report-html/resolution-chart.js";
import { headline } from "../results/headline.js";
import { gapTable, type ReportTable } from "../results/report-tables.js";
import type { ResultLine } from "../run-dir/result-line.js";

/** One regime's run of the offline benchmark. */
export interface RegimeRun {
  regime: string;
  /** What the regime is (`regimeWindow(regime, host).description`). */
  description: string;
  /** The run's directory, relative to the combined report's. */
  dir: string;
  results: readonly ResultLine[];
}

export interface RegimesReportOptions {
  title: string;
  /** Who did the work (`describeScriptedAgent`). */
  setting: string;
  /** Which OpenCode ran the sessions (`reportHost`), one line. */
  host?: string | undefined;
}

/**
 * `bench mini`'s own report.md and report.html over its runs, one per regime: for each, the
 * resolution per mode, native's switched gap, how much of it each mode recovers and why the
 * switched sessions failed, with the label that it measures the mechanism, not a model.
 */
export async function writeRegimesReport(
  outDir: string,
  runs: readonly RegimeRun[],
  options: RegimesReportOptions,
): Promise<{ markdown: string; html: string }> {
  const markdown = join(outDir, "report.md");
  const html = join(outDir, "report.html");
  await writeFile(markdown, renderMarkdown(runs, options));
  await writeFile(html, renderHtml(runs, options));
  return { markdown, html };
}

function renderMarkdown(runs: readonly RegimeRun[], options: RegimesReportOptions): string {
  const lines = [`# ${options.title}`, "", options.setting, ...(options.host ? ["", options.host] : [])];
  for (const run of runs) {
    const table = gapTable(run.results);
    lines.push(
      "",
      `## Regime ${run.regime}: ${run.description}`,
      "",
      headline(run.results),
      "",
      `${run.results.length} session runs; the whole report: ${run.dir}/report.md`,
      "",
    );
    lines.push(...markdownTable(table));
  }
  return `${lines.join("\n")}\n`;
}

function markdownTable(table: ReportTable): string[] {
  return [`| ${table.header.join(" | ")} |`, `| ${table.header.map(() => "---").join(" | ")} |`, ...table.rows.map((row) => `| ${row.join(" | ")} |`)];
}

function renderHtml(runs: readonly RegimeRun[], options: RegimesReportOptions): string {
  const parts = [
    ...pageHead(options),
    ...runs.flatMap((run) => [
      `<h2 id="regime-${escapeHtml(run.regime)}">Regime ${escapeHtml(run.regime)}: ${escapeHtml(run.description)}</h2>`,
      `<p class="headline"><strong>${escapeHtml(headline(run.results))}</strong></p>`,
      `<p class="note">${run.results.length} session runs; the whole report: <a href="${escapeHtml(`${run.dir}/report.html`)}">${escapeHtml(`${run.dir}/report.html`)}</a></p>`,
      resolutionChart(run.results),
      tableHtml(gapTable(run.results)),
    ]),
    "</body></html>",
  ];
  return `${parts.filter((part) => part !== "").join("\n")}\n`;
}
