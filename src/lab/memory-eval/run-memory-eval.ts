import { RcmError } from "../../kit/errors/rcm-error.js";
import { createAux, createMemoryUpdater } from "../../plugin/auxiliary/create-aux-users.js";
import { envLayer } from "../../plugin/config/env-layer.js";
import { tupleLayer } from "../../plugin/config/load-options.js";
import { describeProblem } from "../../plugin/config/option-problem.js";
import { resolveOptions } from "../../plugin/config/resolve-options.js";
import { askedSentences } from "../../plugin/core/memory/asked-sentences.js";
import type { GroupDigest } from "../../plugin/core/memory/group-digest.js";
import { activeConstraints } from "../../plugin/core/memory/record.js";
import type { MemoryUpdater } from "../../plugin/core/memory/updater.js";
import type { ClauseScore, RequestResult } from "./evaluate-requirements.js";
import { type LabelledRequest, readRequirementSet } from "./requirement-set.js";
import { scoreAskedSentences, sentenceTotals } from "./score-asked-sentences.js";

export interface MemoryEvaluation {
  /** One row per labelled file, then the total. */
  rows: Array<{ name: string; score: ClauseScore }>;
  total: ClauseScore;
  results: RequestResult[];
}

/**
 * Runs an updater's extraction over labelled requests: by default the extractive updater's (the
 * asked sentences a record keeps); with `updater`, the constraints of the record that updater
 * writes for the request alone (one request, one update, no previous record). A gold clause
 * counts as kept when one constraint holds it whole, a constraint as right when it holds (a
 * piece of) a gold clause (score-asked-sentences.ts).
 */
export async function runMemoryEval(paths: readonly string[], options: { updater?: MemoryUpdater } = {}): Promise<MemoryEvaluation> {
  const results: RequestResult[] = [];
  for (const path of paths) {
    for (const request of await readRequirementSet(path)) {
      const predicted = options.updater ? await recordedConstraints(options.updater, request) : askedSentences(request.text).map((sentence) => sentence.text);
      results.push(scoreAskedSentences(request, predicted));
    }
  }
  const files = [...new Set(results.map((result) => result.request.file))];
  return {
    rows: files.map((file) => ({ name: file, score: sentenceTotals(results.filter((result) => result.request.file === file)) })),
    total: sentenceTotals(results),
    results,
  };
}

/** The constraints of the record `updater` writes for the request as a task's only exchange; none when the update fails. */
async function recordedConstraints(updater: MemoryUpdater, request: LabelledRequest): Promise<string[]> {
  const requestID = `msg_${request.id.replace(/[^\w-]/g, "_")}`;
  const batch: GroupDigest[] = [
    { id: requestID, kind: "request", requestID, requestText: request.text, steps: [], assistantIDs: [], errors: [], aborted: false },
  ];
  const result = await updater.update({ task: { id: "t1", title: request.id, openedBy: requestID }, previous: undefined, batch, requestIDs: [requestID] });
  return result.ok ? activeConstraints(result.record).map((constraint) => constraint.text) : [];
}

export function renderMemoryEval(evaluation: MemoryEvaluation, options: { verbose?: boolean; updater?: string } = {}): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const line = (name: string, score: ClauseScore) =>
    `| ${name} | ${score.requests} | ${score.gold} | ${score.predicted} | ${score.matched} | ${percent(score.precision)} | ${percent(score.recall)} |`;
  const lines = [
    `Requirements kept as constraints (${options.updater ?? "extractive"} updater): the user's asked sentences, whole`,
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

/**
 * The model updater as the plug-in makes it, its endpoint read from RCM_AUX_BASE_URL, RCM_AUX_MODEL
 * and RCM_AUX_API_KEY (outside OpenCode there are no OpenCode models to ask).
 */
export function modelUpdaterFromEnv(env: Readonly<Record<string, string | undefined>>): MemoryUpdater {
  const { options, problems } = resolveOptions([tupleLayer({ memory: { updater: "model" }, aux: { source: "endpoint" } }), envLayer(env)]);
  if (problems.length > 0) throw new RcmError("memory-eval-setup", problems.map(describeProblem).join("; "));
  const updater = createMemoryUpdater(options, createAux(options, env));
  if (updater.name !== "model") throw new RcmError("memory-eval-setup", "the model updater needs RCM_AUX_BASE_URL and RCM_AUX_MODEL");
  return updater;
}
