import type { ClauseScore, RequestResult } from "./evaluate-requirements.js";
import type { LabelledRequest } from "./requirement-set.js";

/**
 * Scores constraints that are the user's own sentences, whole, against gold requirement
 * clauses (which are often parts of sentences):
 * - a gold clause is kept when one constraint holds at least 80% of its words: a clause cut
 *   up across several constraints is not kept, however many of its words they hold together;
 * - a constraint is right when it holds a gold clause so, or when at least 60% of its own
 *   words come from one gold clause (a piece of a requirement, not something else).
 * A constraint is one sentence or list item by construction, so holding a clause cannot be
 * bought with a whole paragraph.
 */
export function scoreAskedSentences(request: LabelledRequest, predicted: readonly string[]): RequestResult {
  const gold = request.requirements.map(words);
  const guesses = predicted.map(words);
  const holds = (guess: Set<string>, clause: Set<string>) => clause.size > 0 && share(clause, guess) >= 0.8;
  const pieceOf = (guess: Set<string>, clause: Set<string>) => guess.size > 0 && share(guess, clause) >= 0.6;
  return {
    request,
    predicted: [...predicted],
    missed: request.requirements.filter((_, index) => !guesses.some((guess) => holds(guess, gold[index] ?? new Set()))),
    extra: predicted.filter((_, index) => {
      const guess = guesses[index] ?? new Set<string>();
      return !gold.some((clause) => holds(guess, clause) || pieceOf(guess, clause));
    }),
  };
}

/** Totals where a right constraint may hold several clauses: precision counts constraints, recall clauses. */
export function sentenceTotals(results: readonly RequestResult[]): ClauseScore {
  const gold = results.reduce((sum, result) => sum + result.request.requirements.length, 0);
  const predicted = results.reduce((sum, result) => sum + result.predicted.length, 0);
  const right = results.reduce((sum, result) => sum + result.predicted.length - result.extra.length, 0);
  const kept = results.reduce((sum, result) => sum + result.request.requirements.length - result.missed.length, 0);
  return { requests: results.length, gold, predicted, matched: kept, precision: predicted === 0 ? 1 : right / predicted, recall: gold === 0 ? 1 : kept / gold };
}

/** Share of `part`'s words that `whole` holds. */
function share(part: ReadonlySet<string>, whole: ReadonlySet<string>): number {
  let held = 0;
  for (const word of part) if (whole.has(word)) held += 1;
  return held / part.size;
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((word) => word.length > 1 || /\d/.test(word)));
}
