import { RETURN_CUE } from "./anchor-rules.js";
import { isSettled, type LedgerEntry } from "./ledger.js";
import { readsAsReply } from "./routing-features.js";
import type { Signals } from "./signals.js";

/** The user corrects the work before: "no, I meant...", "not that one", "wrong task". */
const CORRECTION =
  /^\W*(?:no\b|nope\b|not (?:that|this)\b|wrong\b|that's not\b|i meant\b|i mean\b|actually\b|wait\b)|\b(?:wrong (?:task|one|file)|not what i (?:meant|asked))\b/i;

/** "For the date parser, ...", "the date parser: ...": a request that names its task up front returns to it. */
const NAMES_ITS_TASK = /^\W*(?:(?:for|on|about|in|re|regarding)\s+)?(?:the|my|our)\s+[\w.-]+(?:\s+[\w.-]+)?\s*[:,\u2014-]/i;

/**
 * Whether the next request bears out an unsure decision on the request before it: the unsure one
 * pointed to the task it was guessed to (its own words, files or names did), and the next one is a
 * reply that carries on surely in that task (not a correction, not a return that names its task,
 * not a rule for every task), and the unsure turn touched no file but that task's. A turn worked
 * on by talk alone settles this way.
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
  if (previous.pointsTo !== undefined && !previous.pointsTo.includes(previous.task)) return false;
  // A return ("back to ...", "for the X, ...") names where it goes, not where the request before it went.
  const returns = nextSignals.backReference !== null || RETURN_CUE.test(nextText) || NAMES_ITS_TASK.test(nextText);
  if (!readsAsReply(nextText, nextSignals) || CORRECTION.test(nextText) || returns) return false;
  // A file nobody had is a new piece of work as often as not: only files of that task (or none) let the reply decide.
  return previousFiles.every((path) => {
    const owners = ownersOf(path);
    return owners.length > 0 && owners.every((task) => task === previous.task);
  });
}
