import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderHtmlReport } from "../report-html/render-html.js";
import { type ReportOptions, renderReport } from "../results/render-report.js";
import type { ResultLine } from "../run-dir/result-line.js";

/** Writes a run directory's `report.md` and `report.html` from its results; returns their paths. */
export async function writeReports(outDir: string, results: readonly ResultLine[], options: ReportOptions): Promise<{ markdown: string; html: string }> {
  const markdown = join(outDir, "report.md");
  const html = join(outDir, "report.html");
  await writeFile(markdown, renderReport(results, options));
  await writeFile(html, renderHtmlReport(results, options));
  return { markdown, html };
}
