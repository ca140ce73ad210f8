import { askedSentences } from "../../plugin/core/memory/asked-sentences.js";
import type { ClauseScore, RequestResult } from "./evaluate-requirements.js";
import { readRequirementSet } from "./requirement-set.js";
import { scoreAskedSentences, sentenceTotals } from "./score-asked-sentences.js";

export interface MemoryEvaluation {
  /** One row per labelled file, then the total. */
  rows: Array<{ name: string; score: ClauseScore }>;
  total: ClauseScore;
  results: RequestResult[];
}

/**
 * Runs the extractive updater's extraction (the asked sentences a record keeps) over labelled
 * requests: a gold clause counts as kept when one constraint holds it whole, a constraint as
 * right when it holds (a piece of) a gold clause (score-asked-sentences.ts).
 */
export async function runMemoryEval(paths: readonly string[]): Promise<MemoryEvaluation> {
  const results: RequestResult[] = [];
  for (const path of paths) {
    for (const request of await readRequirementSet(path))
      results.push(
        scoreAskedSentences(
          request,
          askedSentences(request.text).map((sentence) => sentence.text),
        ),
      );
  }
  const files = [...new Set(results.map((result) => result.request.file))];
  return {
    rows: files.map((file) => ({ name: file, score: sentenceTotals(results.filter((result) => result.request.file === file)) })),
    total: sentenceTotals(results),
    results,
  };
}

export function renderMemoryEval(evaluation: MemoryEvaluation, options: { verbose?: boolean } = {}): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const line = (name: string, score: ClauseScore) =>
    `| ${name} | ${score.requests} | ${score.gold} | ${score.predicted} | ${score.matched} | ${percent(score.precision)} | ${percent(score.recall)} |`;
  const lines = [
    "Requirements kept as constraints (extractive updater): the user's asked sentences, whole",
    "precision: constraints that hold a gold clause (or a piece of one); recall: gold clauses one constraint holds (80% of their words)",
    "",
    "| file | requests | gold clauses | constraints | clauses kept | precision | recall |",
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
