import { DEFAULT_OPTIONS } from "../../../plugin/config/options-schema.js";
import { DEFAULT_CACHE_READ_PRICE } from "../metrics/cache-cost.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { headline } from "./headline.js";
import { reportTables } from "./report-tables.js";

export interface ReportOptions {
  title: string;
  /** Who did the work and in which window (`describeAgent`), printed under the title. */
  setting?: string | undefined;
  /** Which OpenCode ran the sessions (`describeHost`), one line under the setting. */
  host?: string | undefined;
  /** What a cached input token costs against an uncached one. */
  cacheReadPrice?: number | undefined;
  /** The plug-in's confidence threshold in the run (run.json's); the default when absent. */
  confidenceThreshold?: number | undefined;
}

/** How routing ran, in one sentence under the setting: the threshold and the paper's fallback below it. */
export function describeRouting(options: Pick<ReportOptions, "confidenceThreshold">): string {
  const threshold = options.confidenceThreshold ?? DEFAULT_OPTIONS.confidenceThreshold;
  return `Routing (modes router and full): below confidence ${threshold} the model gets every task's history (the paper's fallback, not the plug-in's \`candidates\`).`;
}

/** `report.md`: resolution, gaps, cost, context fidelity and failures per mode and condition. */
export function renderReport(results: readonly ResultLine[], options: ReportOptions): string {
  const lines = [
    `# ${options.title}`,
    "",
    ...(options.setting ? [options.setting, ""] : []),
    ...(options.host ? [options.host, ""] : []),
    headline(results),
    "",
    describeRouting(options),
    "",
    `${results.length} session runs.`,
  ];
  for (const table of reportTables(results, { cacheReadPrice: options.cacheReadPrice ?? DEFAULT_CACHE_READ_PRICE })) {
    lines.push("", `## ${table.heading}`, "");
    if (table.note) lines.push(table.note, "");
    lines.push(`| ${table.header.join(" | ")} |`, `| ${table.header.map(() => "---").join(" | ")} |`);
    for (const row of table.rows) lines.push(`| ${row.join(" | ")} |`);
  }
  return `${lines.join("\n")}\n`;
}
