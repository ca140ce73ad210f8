import { contentWords, extractSignals } from "../routing/signals.js";
import { mainOf } from "./clause-labels.js";
import { opensImperative } from "./clause-shape.js";
import { clauses, isRequirementClause } from "./requirement-clauses.js";

/**
 * Which earlier constraints a newer request overrides. Deterministic and conservative: a
 * constraint is marked only on a clear cue, and only when the cue names what it replaces,
 * or points straight back at the request before it:
 * - a retraction ("scratch that", "forget what I said") takes back the clauses just before it
 *   in the same request, or else the previous request's constraints;
 * - a dropped subject ("drop the tuple idea", "the cache is no longer needed") overrides the
 *   constraints that name that subject;
 * - a replacement ("use tabs instead of spaces") overrides the constraints that name what is
 *   replaced;
 * - a revision ("actually, write it as JSON") overrides constraints on the same subject: a
 *   shared code name or path, or at least two shared content words;
 * - a contradiction without a cue word: the same instruction negated, or the same setting
 *   given a different value ("set the timeout to 10s" after "set the timeout to 30s").
 * Additions ("also", "as well") never override.
 */

/**
 * A constraint that may be overridden: `order` is its request's position in the task, `at`
 * where it starts in that request's text (whitespace flattened; -1 when it is from another).
 */
export interface EarlierConstraint {
  key: string;
  text: string;
  order: number;
  at: number;
}

export interface Override {
  key: string;
  /** The words of the newer request that override it, as the record shows them. */
  because: string;
}

const RETRACT =
  /^(?:(?:no|actually|wait|hmm+|ok|okay|sorry|oh),?\s+)*(?:scratch|forget|ignore|disregard|never ?mind|undo|cancel|strike) (?:that|this|it|all that|what i (?:said|asked|wrote)(?: (?:before|earlier|above))?|my (?:last|previous) (?:message|request|comment|ask)|the (?:last|previous) (?:one|part|request|message))\b/i;
const DROPPED_SUBJECT = [
  /\b(?:drop|forget(?: about)?|abandon|scrap|ditch|shelve|skip|lose|give up on) (?:the |that |this |our |my |your )?(.{2,60}?) (?:idea|approach|plan|requirement|suggestion|part|bit|change|thing|proposal|option|route)\b/i,
  /\b(?:forget(?: about)?|abandon|scrap|ditch) (?:the |that |this |our |my )?([^,.;]{2,40})/i,
  /\b(?:the |that |this |our )?([^,.;]{2,60}?) (?:is|are) (?:no longer|not) (?:needed|required|wanted|necessary)(?: (?:any ?more|after all))?\b/i,
  /\bno (?:more |longer any )?need (?:for|to) ([^,.;]{2,60})/i,
  /\b(?:we|i|you) (?:don't|do not|no longer) (?:need|want) ([^,.;]{2,60}?)(?: (?:any ?more|after all)|$|[,.;])/i,
];
const REPLACE =
  /\b(?:use|switch to|go with|prefer|make it|call it|name it|rename it to|return|emit|raise|write|store|keep|pick|choose) (.{1,60}?),? (?:instead of|rather than) (.{1,60}?)(?=[,.;]|$)/i;
// "Actually" revises only at the start: "to actually print the order" is an adverb.
const REVISION =
  /\b(?:instead|no longer|not any ?more|rather than|switch(?:ing)? to|after all|on second thought|change of plan)\b|^(?:(?:ok|so|hmm+|wait),?\s+)?actually\b|\bchange\b[^.;]{0,60}?\bto\b|\bdon'?t\b[^.;]{0,60}?\bany ?more\b|^no,/i;
const ADDITIVE = /\b(?:also|as well|in addition|additionally|too)\b/i;
// Negation of the instruction itself; "X, not Y" only contrasts.
const NEGATION = /\b(?:don't|do not|never|must not|mustn't|should not|shouldn't|no longer)\b/i;
// Words that carry the cue, not the subject.
const CUE_WORDS = new Set([
  "instead",
  "actually",
  "rather",
  "longer",
  "anymore",
  "forget",
  "switch",
  "drop",
  "change",
  "scratch",
  "mind",
  "idea",
  "approach",
  "plan",
  "need",
  "needed",
  "want",
  "use",
]);

/** The earlier constraints that `text` (a newer request of the task, at position `order`) overrides. */
export function findOverrides(options: { text: string; order: number; earlier: readonly EarlierConstraint[] }): Override[] {
  const { text, order, earlier } = options;
  const found = new Map<string, string>();
  const flat = text.replace(/\s+/g, " ");
  let cursor = 0;
  for (const piece of clauses(text)) {
    const at = Math.max(cursor, flat.indexOf(piece.slice(0, 40), cursor));
    cursor = at;
    const before = earlier.filter((constraint) => constraint.order < order || (constraint.order === order && constraint.at < at));
    for (const key of overriddenBy(piece, order, before)) if (!found.has(key)) found.set(key, piece);
  }
  return [...found].map(([key, because]) => ({ key, because }));
}

function overriddenBy(piece: string, order: number, earlier: readonly EarlierConstraint[]): string[] {
  if (RETRACT.test(piece)) return retracted(order, earlier);
  if (ADDITIVE.test(piece)) return [];
  const subject = droppedSubject(piece);
  if (subject) return earlier.filter((constraint) => namesAll(constraint.text, subject)).map((constraint) => constraint.key);
  const replaced = REPLACE.exec(piece)?.[2];
  if (replaced) return earlier.filter((constraint) => namesAll(constraint.text, replaced)).map((constraint) => constraint.key);
  // A revision or a contradiction must itself ask for something: a description that mentions the subject overrides nothing.
  if (!isRequirementClause(piece)) return [];
  if (REVISION.test(piece)) return earlier.filter((constraint) => sameSubject(piece, constraint.text)).map((constraint) => constraint.key);
  return earlier.filter((constraint) => contradicts(piece, constraint.text)).map((constraint) => constraint.key);
}

/** "scratch that": the constraint just before it in the same request, or else the whole previous request. */
function retracted(order: number, earlier: readonly EarlierConstraint[]): string[] {
  const sameRequest = earlier.filter((constraint) => constraint.order === order);
  if (sameRequest.length > 0) {
    const last = Math.max(...sameRequest.map((constraint) => constraint.at));
    return sameRequest.filter((constraint) => constraint.at === last).map((constraint) => constraint.key);
  }
  const previous = Math.max(-1, ...earlier.filter((constraint) => constraint.order < order).map((constraint) => constraint.order));
  return earlier.filter((constraint) => constraint.order === previous).map((constraint) => constraint.key);
}

function droppedSubject(piece: string): string | undefined {
  for (const pattern of DROPPED_SUBJECT) {
    const subject = pattern.exec(piece)?.[1];
    if (subject && subjectWords(subject).length > 0) return subject;
  }
  return undefined;
}

/** Every content word and code name of `subject` appears in `text`. */
function namesAll(text: string, subject: string): boolean {
  const words = subjectWords(subject);
  const have = new Set([...contentWords(text), ...codeNames(text)]);
  return words.length > 0 && words.every((word) => have.has(word));
}

function subjectWords(subject: string): string[] {
  return [...new Set([...contentWords(subject).filter((word) => !CUE_WORDS.has(word)), ...codeNames(subject)])];
}

/**
 * The same instruction revised: the same verb ("write the report as JSON" after "write the
 * report as CSV"), and a shared code name or two shared content words (cue words not counted).
 * A different verb is a different instruction, however many words it shares.
 */
function sameSubject(newer: string, older: string): boolean {
  const verb = headVerb(newer);
  if (verb === undefined || verb !== headVerb(older)) return false;
  const names = new Set(codeNames(newer));
  if (codeNames(older).some((name) => names.has(name))) return true;
  const words = new Set(contentWords(newer).filter((word) => !CUE_WORDS.has(word)));
  return new Set(contentWords(older).filter((word) => words.has(word))).size >= 2;
}

/** The verb an instruction starts with ("write"), or the one after its modal ("it should stream" → "stream"). */
function headVerb(text: string): string | undefined {
  const main = mainOf(text)
    .replace(/^(?:actually|instead|rather|no|so|ok),?\s+/i, "")
    .replace(/^(?:don't|do not|never|please)\s+/i, "");
  const verb = opensImperative(main)
    ? main.split(/\s+/)[0]
    : /\b(?:should|must|shall|needs? to|has to|have to)\s+(?:not\s+|never\s+|always\s+|only\s+|still\s+)?(\w+)/i.exec(main)?.[1];
  return verb === undefined ? undefined : (contentWords(verb)[0] ?? verb.toLowerCase());
}

/**
 * The same instruction negated ("Don't add a --json flag" after "Add a --json flag"), or
 * the same setting with another value ("timeout to 10s" after "timeout to 30s"): nearly all
 * content words shared, at least two.
 */
function contradicts(newer: string, older: string): boolean {
  const a = new Set(contentWords(withoutValues(newer)));
  const b = new Set(contentWords(withoutValues(older)));
  const shared = [...a].filter((word) => b.has(word)).length;
  if (shared < 2 || shared < 0.8 * Math.min(a.size, b.size) || headVerb(newer) !== headVerb(older)) return false;
  if (NEGATION.test(newer) !== NEGATION.test(older)) return true;
  const valuesA = values(newer);
  const valuesB = values(older);
  return valuesA.length > 0 && valuesB.length > 0 && valuesA.join(" ") !== valuesB.join(" ");
}

const VALUE = /`[^`]+`|"[^"]*"|'[^']*'|\b\d+(?:\.\d+)?\s*(?:%|ms|s|m|h|kb|mb|gb|px|x)?\b/gi;

function values(text: string): string[] {
  return (text.match(VALUE) ?? []).map((value) => value.toLowerCase());
}

function withoutValues(text: string): string {
  return text.replace(VALUE, " ");
}

function codeNames(text: string): string[] {
  const signals = extractSignals(text);
  return [...signals.paths, ...signals.symbols];
}
