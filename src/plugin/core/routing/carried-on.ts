import { isSettled, type LedgerEntry } from "./ledger.js";
import { readsAsFollowUp } from "./routing-features.js";
import type { Signals } from "./signals.js";

/** The user corrects the work before: "no, I meant...", "not that one", "wrong task". */
const CORRECTION = /^\W*(?:no\b|nope\b|not (?:that|this)\b|wrong\b|that's not\b|i meant\b|i mean\b|actually\b|wait\b)|\b(?:wrong (?:task|one|file)|not what i (?:meant|asked))\b/i;

/**
 * Whether the next request bears out an unsure decision on the request before it: the next one
 * is a reply that carries on surely in the task the unsure one was guessed to (a follow-up, not a
 * correction, not a rule for every task), and the unsure turn's files say nothing against it
 * (each was no task's, or that task's). A turn worked on by talk alone settles this way.
 */
export function carriesOn(options: {
  previous: LedgerEntry;
  next: LedgerEntry;
  nextText: string;
  nextSignals: Signals;
  /** Files the unsure turn touched, and the tasks that had each before it. */
  previousFiles: readonly string[];
  ownersOf: (path: string) => readonly string[];
  threshold: number;
}): boolean {
  const { previous, next, nextText, nextSignals, previousFiles, ownersOf, threshold } = options;
  if (previous.shared || isSettled(previous, threshold)) return false;
  if (next.shared || next.opened || next.confidence < threshold || next.task !== previous.task) return false;
  if (!readsAsFollowUp(nextText, nextSignals) || CORRECTION.test(nextText)) return false;
  return previousFiles.every((path) => ownersOf(path).every((task) => task === previous.task));
}
