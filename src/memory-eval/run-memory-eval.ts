import { requirementClauses } from "../core/memory/requirement-clauses.js";
import { type ClauseScore, type RequestResult, scoreRequest, totals } from "./evaluate-requirements.js";
import { readRequirementSet } from "./requirement-set.js";

export interface MemoryEvaluation {
  /** One row per labelled file, then the total. */
  rows: Array<{ name: string; score: ClauseScore }>;
  total: ClauseScore;
  results: RequestResult[];
}

/** Runs the extractive updater's requirement extraction over labelled requests. */
export async function runMemoryEval(paths: readonly string[]): Promise<MemoryEvaluation> {
  const results: RequestResult[] = [];
  for (const path of paths) {
    for (const request of await readRequirementSet(path)) results.push(scoreRequest(request, requirementClauses(request.text)));
  }
  const files = [...new Set(results.map((result) => result.request.file))];
  return {
    rows: files.map((file) => ({ name: file, score: totals(results.filter((result) => result.request.file === file)) })),
    total: totals(results),
    results,
  };
}

export function renderMemoryEval(evaluation: MemoryEvaluation, options: { verbose?: boolean } = {}): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const line = (name: string, score: ClauseScore) =>
    `| ${name} | ${score.requests} | ${score.gold} | ${score.predicted} | ${score.matched} | ${percent(score.precision)} | ${percent(score.recall)} |`;
  const lines = [
    "Requirement clauses kept as constraints (extractive updater), matched one-to-one by shared words",
    "",
    "| file | requests | gold clauses | kept | matched | precision | recall |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...evaluation.rows.map((row) => line(row.name, row.score)),
    line("**all**", evaluation.total),
  ];
  if (options.verbose) {
    for (const result of evaluation.results) {
      if (result.missed.length === 0 && result.extra.length === 0) continue;
      lines.push("", `${result.request.id}:`);
      for (const missed of result.missed) lines.push(`  missed: ${missed}`);
      for (const extra of result.extra) lines.push(`  extra:  ${extra}`);
    }
  }
  return lines.join("\n");
}
