import { bareOf, DELIVERABLE_LABEL, mainOf, stripFillers, withoutLabelsButDeliverable } from "./clause-labels.js";
import { hasFiniteVerb, hasPresentVerb, headOf, opensDeliverable, opensImperative, opensStatement } from "./clause-shape.js";
import {
  CHECK_THAT,
  DEBUG_AID,
  DECISION,
  HEDGE,
  MODAL,
  ONE_OFF,
  PLEASANT,
  POLITE,
  PROHIBITION,
  REPORTED,
  STANDING,
  WANT_IN_COMPLAINT,
  WORKSPACE,
} from "./requirement-cues.js";

/**
 * What one clause of a request is:
 * - `requirement`: it asks for something on its own (an imperative, a want, a decision, a
 *   deliverable, a standing instruction);
 * - `rule`: a plain statement of how things are to be ("A holiday is not a working day"),
 *   a requirement only where the request is already specifying the target;
 * - `none`: a question, a description, background, a one-off instruction, a pleasantry.
 */
export type ClauseKind = "requirement" | "rule" | "none";

export interface ClauseContext {
  /** The sentence is a polite request ("Can you ... and ...?"): its question mark does not make it a question. */
  polite?: boolean;
  /** The sentence opened with a standing instruction ("From now on ..."): every clause of it is one. */
  standing?: boolean;
  /** The sentence ends with a question mark. */
  question?: boolean;
  /** The request has other sentences: a bare "Fix it" then points at the defect they describe. */
  hasContext?: boolean;
  /** The sentence opened with a hunch ("my guess: ..."): its statements are guesses, not targets. */
  hedged?: boolean;
  /** The sentence opened with "Repro:" or "Steps:": it reproduces, it asks for nothing. */
  repro?: boolean;
}

/** What one clause is; see ClauseKind. */
export function clauseKind(clause: string, context: ClauseContext = {}): ClauseKind {
  const bare = bareOf(clause);
  if (bare === "" || isPleasantry(bare) || !/[a-z]{2}/i.test(bare)) return "none";
  if (context.question && !context.polite) return "none";
  if (/\?\s*$/.test(clause) && !context.polite) return "none";
  if (STANDING.test(bare)) return "requirement";
  const main = mainOf(clause);
  if (isOneOff(main) || isOneOff(bare)) return "none";
  // Under "From now on ..." even a statement is an instruction: "snapshots are regenerated with -u".
  if (context.standing) return "requirement";
  if (CHECK_THAT.test(main)) return "requirement";
  const labelled = DELIVERABLE_LABEL.exec(withoutLabelsButDeliverable(clause));
  if (labelled && !hasFiniteVerb(headOf(withoutLabelsButDeliverable(clause).slice(labelled[0].length)))) return "requirement";
  if (context.polite) return opensImperative(main) ? "requirement" : "none";
  if (context.repro || REPRO_LEAD.test(bare)) return "none";
  if (isBareGoAhead(main)) return context.hasContext && /^(?:fix|handle|address|patch)\b/i.test(main) ? "requirement" : "none";
  if (DECISION.test(main) || DECISION.test(bare)) return "requirement";
  if (context.hedged) return opensImperative(main) ? "requirement" : "none";
  if (saysInstruction(bare)) return "requirement";
  if (opensImperative(main)) return "requirement";
  if (statesWant(clause)) return "requirement";
  if (PROHIBITION.test(main) && wordCount(main) >= 2 && !opensStatement(main.replace(/^\S+\s+/, ""))) return "requirement";
  if (opensDeliverable(bare) && (wordCount(bare) >= 2 || !/^tests?$/i.test(bare))) return "requirement";
  if (isAlsoFragment(withoutLabelsButDeliverable(clause).trim(), bare)) return "requirement";
  if (pointsBack(bare)) return "requirement";
  return isRuleStatement(bare, clause) ? "rule" : "none";
}

/**
 * "lint complains about the nested ternary, flatten it": an instruction whose pronoun points
 * at the statement before it, in the same sentence, keeps that statement as its referent.
 */
function pointsBack(bare: string): boolean {
  const comma = bare.lastIndexOf(", ");
  if (comma < 0) return false;
  const joined = bare.slice(comma + 2);
  const tail = stripFillers(joined).replace(POLITE, "");
  // "`padding` may be an int or a tuple, so use `Padding.unpack`": the instruction draws on the statement.
  const drawn = /^so\s/i.test(joined) || /\b(?:it|them|that|those|these|this one|there)\b/i.test(tail);
  return drawn && opensImperative(tail) && !isOneOff(tail);
}

/** Reproduction steps, examples and observed output, under their usual headings. */
export const REPRO_LEAD =
  /^(?:repro|reproduction|to reproduce|steps(?: to reproduce)?|how to reproduce|minimal(?: repro| example| case)?|example|e\.g\.|for example|output|actual|actual behaviou?r|got|traceback|log|stack ?trace|environment|versions?)\s*:/i;

function isOneOff(text: string): boolean {
  if (CHECK_THAT.test(text)) return false;
  return (
    ONE_OFF.test(text) || (DEBUG_AID.test(text) && /^(?:log|print|put|add|emit|dump|write)\b/i.test(text)) || SESSION_ARTIFACT.test(text) || TRIAL.test(text)
  );
}

/** Words for the issue tracker, not the repository: "include the snippet in the reply", "leave a review comment". */
const SESSION_ARTIFACT =
  /\b(?:in (?:the|your|my) (?:reply|answer|pr description)|in your response|review comment|comment on the (?:issue|pr|ticket|thread)|as a (?:draft )?(?:pr|pull request))\b/i;
/** "Drop default= and it works": a condition of an observation, not an instruction. */
const TRIAL = /(?:,\s*|\s)and (?:it|everything|the \w+) (?:works|passes|is fine|goes away|disappears|succeeds)\b/i;

/** "implement it", "ok fix it there": a go-ahead whose content is elsewhere. */
function isBareGoAhead(main: string): boolean {
  // Only verbs that say nothing of their own: "wrap it" or "normalise them" still say what to do.
  const verb =
    /^(?:do|redo|implement|start|go|change|fix|handle|address|tackle|finish|continue|proceed|rework|apply|make|write|patch|add)(?:\s+(?:it|that|this|them|those|these|both|all(?: of them)?))?(?:\s+(?:there|now|then|too|as well|please|here|up|first|properly|like that|like this|that way|this way|again))*$/i;
  return verb.test(main);
}

/** "The maintainer says keep X": an instruction passed on. */
function saysInstruction(bare: string): boolean {
  const said = SAYS.exec(bare);
  return said !== null && !/^(?:we|it|they|that|this|the|a|an|there)\b/i.test(bare.slice(said[0].length)) && opensImperative(bare.slice(said[0].length));
}

/** A want or obligation stated by the user or adopted by them, not a reported opinion or a want of information. */
function statesWant(clause: string): boolean {
  const text = bareOf(clause);
  const modal = MODAL.exec(text);
  if (!modal || WANT_IN_COMPLAINT.test(text)) return false;
  // "ffmpeg wants the terminal's stdin", "eject wants the number": only people want things.
  if (
    /^(?:wants?|suggests|proposes|recommends|prefers?|insists?|asks?|asked|requests?|requested)\b/i.test(modal[0]) &&
    !PERSON.test(text.slice(0, modal.index))
  )
    return false;
  if (REPORTED.test(text.slice(0, modal.index))) return false;
  if (HEDGE.test(text) && !/\b(?:should|must|needs? to|has to|have to|want|would like|'d like)\b/i.test(text)) return false;
  // Descriptions that mention a tool's demand: "Postgres complains that a column has to appear ...".
  if (/\b(?:complains?|errors? (?:out )?(?:with|saying)|says|said|warns?|message)\b[^.]*$/i.test(text.slice(0, modal.index))) return false;
  // An impersonal "you" describes today's workaround: "to get the hidden ones you have to subtract".
  if (/^(?:to \w+|if you|when you|unless you)\b[^,]*?,?\s*you (?:have to|need to|must|can)\b/i.test(text)) return false;
  // "any class should do", "that would be enough": sufficiency, not a target.
  if (/\b(?:should|would|will) (?:do|suffice|be enough|be plenty)\s*[.!]?$/i.test(text)) return false;
  // "That needs a maintainer decision": a need of the discussion, not of the code.
  if (
    /^needs?\b/i.test(modal[0]) &&
    /^\s*(?:a|an|the|some|more)?\s*(?:\w+\s+)?(?:decision|discussion|review|input|thought|answer|investigation|look|confirmation|consensus|info|information)\b/i.test(
      text.slice(modal.index + modal[0].length),
    )
  )
    return false;
  // A gerund subject describes a circumstance: "Reproducing needs a server".
  if (/^\w+ing\b/i.test(text) && modal.index > 0 && /^needs?\b/i.test(modal[0])) return false;
  // A want of information or of session work from us is not a requirement: "I'd like to see how hard it would be".
  const personal = /(?:^|\b(?:i|we|you)\s+)$/i.test(text.slice(0, modal.index)) || /^(?:i|we)\b/i.test(text);
  const wanted = text.slice(modal.index + modal[0].length).replace(/^\s*(?:(?:you|us|me|it|them)\s+)?(?:to\s+)?/i, "");
  return !(personal && (isOneOff(wanted) || /^(?:know|understand|hear|learn|see|figure|find out|check whether|confirm|ask)\b/i.test(wanted)));
}

/** Someone in the clause before "wants": "the maintainer is fine with X but wants Y", "I want", "RonnyPfannschmidt wants". */
const PERSON_WORD =
  /\b(?:i|we|you|they|he|she|users?|reviewers?|maintainers?|reporters?|callers?|customers?|people|folks|team|lead|someone|everyone|nobody|owners?|authors?|contributors?|developers?|colleagues?|qa)\b/i;
const NAME_BEFORE = /\b[A-Z][a-z]+[a-zA-Z]*\s+(?:[\w']+\s+)?$/;
const PERSON = {
  // The subject nearest the verb: after the last comma or conjunction ("we mount X, and the page then asks for Y").
  test: (before: string) => {
    const trimmed = before.replace(/(?:^|\s+)(?:(?:also|now|still|really|only|just|actually|then|even|doesn't|does not|don't|do not|no longer)\s*)+$/i, " ");
    const subject = trimmed.split(/,\s+|\s+(?:and|but|so|then)\s+|:\s+|;\s+/).at(-1) ?? "";
    return subject.trim() === "" || PERSON_WORD.test(subject) || NAME_BEFORE.test(subject);
  },
};

/** "wildcard * too", "also the boolean case, send(true)": a short follow-up that can only mean "this as well". */
function isAlsoFragment(text: string, bare: string): boolean {
  if (/^plus\s/i.test(text)) return !opensStatement(bare);
  return wordCount(bare) <= 10 && (/\b(?:too|as well)[.!]?$/i.test(text) || /^(?:and\s+)?also\b/i.test(text)) && !opensStatement(bare) && !hasFiniteVerb(bare);
}

// Statements that describe today's behaviour, diagnose it, or give background.
const DESCRIPTION =
  /\b(?:currently|today|right now|at the moment|for now|still(?! (?:apply|applies|hold|holds))|already|anymore|any more|no longer|used to|but|however|although|though|regression|since (?:v?\d|version|\w+ \d)|broke|broken|breaks|crash(?:es|ed)?|fails?|failed|failing|hangs?|blows? up|panics?|panicked|wrong(?:ly)?|bug|issue #?\d*|ticket|traceback|repro(?:duce|duction)?|on purpose|bad practice|the docs say|people|users|someone|somebody|ci\b|(?:is|are) off\b|off by|lint|flake8|my guess|my hunch|confusing|surprising|unexpected(?:ly)?|weird|odd|ugly|slow|is fine|are fine|works fine|works|worked|happens|happened)\b|\b(?:was|were|wasn't|weren't|did|didn't|had|hadn't)\b/i;
/** Where code lives is a pointer, not a target: "the validator lives in core/union.rs". */
const LOCATION =
  /\b(?:lives?|sits?|is defined|are defined|is implemented|are implemented|is set up|are set up|is computed|gets computed|is handled|are handled|is called|happens|is done|is in|are in|comes from)\b[^.]*(?:\/|\.\w{1,4}\b|\bin the\b|\bcode\b|\bmodule\b|\bfile\b)|^see\b/i;
/** Anaphoric evaluations and reasons: "it's a visible behaviour change", "that's the point". */
const JUSTIFICATION = /^(?:it's|it is|that's|that is|this is(?! only)|which|because|since|as|so that|otherwise|the reason|the point)\b/i;
const NARRATIVE = /^(?:i|we|you|my|our|your|they|he|she|someone|people|users)\b/i;

/** A general statement of how things are to be: present tense, no example output, no background. */
export function isRuleStatement(bare: string, raw: string = bare): boolean {
  if (wordCount(bare) < 3 || isPleasantry(bare) || !hasPresentVerb(bare)) return false;
  // Fillers count here: "Right now X is overwritten", "Now it produces a double slash" describe today.
  if (
    DESCRIPTION.test(raw) ||
    /^(?:now|right now)\b/i.test(raw.replace(WORKSPACE, "").trim()) ||
    LOCATION.test(bare) ||
    JUSTIFICATION.test(bare) ||
    NARRATIVE.test(bare) ||
    HEDGE.test(bare) ||
    REPORTED.test(bare)
  )
    return false;
  return !/\b(?:i|we|you|my|our|your)\b/i.test(bare) && !WANT_IN_COMPLAINT.test(bare);
}

/** Someone's words taken up as an instruction: "the maintainer says keep ...", "reviewer: ...". */
const SAYS =
  /^(?:(?:the |a |our |one )?(?:maintainers?|reviewers?|reviewer \w+|owner|lead|team|upstream|\w+)\s+)?(?:says?|said|asks?|replied|wrote|answered)(?: that)?\s+/i;

export function isPleasantry(text: string): boolean {
  return (text.toLowerCase().match(/[a-z']+/g) ?? []).every((word) => PLEASANT.has(word));
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}
