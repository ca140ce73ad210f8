import type { LabelledRequest } from "./requirement-set.js";

/** Precision and recall of extracted constraints against gold requirement clauses. */
export interface ClauseScore {
  requests: number;
  gold: number;
  predicted: number;
  matched: number;
  precision: number;
  recall: number;
}

export interface RequestResult {
  request: LabelledRequest;
  predicted: string[];
  /** Gold clauses no prediction matched. */
  missed: string[];
  /** Predictions that match no gold clause. */
  extra: string[];
}

/**
 * A predicted clause matches a gold one when they share most of their words both ways (at
 * least 60% of the gold clause's words and 50% of the prediction's): a clause cut a little
 * differently still counts, a whole paragraph around it does not. Matching is one-to-one,
 * best overlaps first.
 */
export function scoreRequest(request: LabelledRequest, predicted: readonly string[]): RequestResult {
  const gold = request.requirements.map(words);
  const guesses = predicted.map(words);
  const pairs: Array<{ g: number; p: number; score: number }> = [];
  gold.forEach((g, gi) => {
    guesses.forEach((p, pi) => {
      const shared = [...g].filter((word) => p.has(word)).length;
      const ofGold = g.size === 0 ? 0 : shared / g.size;
      const ofGuess = p.size === 0 ? 0 : shared / p.size;
      if (ofGold >= 0.6 && ofGuess >= 0.5) pairs.push({ g: gi, p: pi, score: ofGold + ofGuess });
    });
  });
  pairs.sort((a, b) => b.score - a.score || a.g - b.g || a.p - b.p);
  const usedGold = new Set<number>();
  const usedGuess = new Set<number>();
  for (const pair of pairs) {
    if (usedGold.has(pair.g) || usedGuess.has(pair.p)) continue;
    usedGold.add(pair.g);
    usedGuess.add(pair.p);
  }
  return {
    request,
    predicted: [...predicted],
    missed: request.requirements.filter((_, index) => !usedGold.has(index)),
    extra: predicted.filter((_, index) => !usedGuess.has(index)),
  };
}

export function totals(results: readonly RequestResult[]): ClauseScore {
  const gold = results.reduce((sum, result) => sum + result.request.requirements.length, 0);
  const predicted = results.reduce((sum, result) => sum + result.predicted.length, 0);
  const matched = results.reduce((sum, result) => sum + result.request.requirements.length - result.missed.length, 0);
  return { requests: results.length, gold, predicted, matched, precision: predicted === 0 ? 1 : matched / predicted, recall: gold === 0 ? 1 : matched / gold };
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((word) => word.length > 1 || /\d/.test(word)));
}
