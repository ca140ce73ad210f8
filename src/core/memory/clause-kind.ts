import {
  CHECK_THAT,
  DEBUG_AID,
  DECISION,
  DELIVERABLE_HEAD,
  DELIVERABLE_NOUN,
  FILLER,
  HEDGE,
  MODAL,
  NOT_A_VERB,
  ONE_OFF,
  PLEASANT,
  POLITE,
  PROHIBITION,
  REPORTED,
  STANDING,
  VERBS,
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

/** Task labels and back-references in front of a clause: "t2 —", "Task B:", "back to X —", "for the X one:". */
const TASK_LABEL =
  /^(?:(?:task\s+)?[a-z]?\d+|task [a-z]|t\d+|(?:the )?(?:first|second|third|fourth|fifth|last|other) (?:task|one|issue|bug|report|thing)|back to '.{1,120}?(?:'|\u0000\d+\u0000\u0002?)(?=\s*(?:[—–]|\s-))|back to [^—–:]{1,80}?|re [^—–:]{1,80}?|about [^—–:]{1,60}?|for (?:t\d+|task \d+|the [^,:—–]{1,50} (?:one|issue|bug|report|task|fix)))\s*(?:[—–:]|\s-)\s*/i;
/** A reference that only says which task a request is about ("Task A:", "back to X —"): the record already knows. */
const TASK_REFERENCE =
  /^(?:(?:task\s+)?[a-z]?\d+|task [a-z]|t\d+|back to '.{1,120}?(?:'|\u0000\d+\u0000\u0002?)(?=\s*(?:[—–]|\s-))|back to [^—–:]{1,80}?|re [^—–:]{1,80}?|about [^—–:]{1,60}?|for (?:t\d+|task \d+))\s*(?:[—–:]|\s-)\s*/i;

/** The clause without a leading task reference. */
export function withoutTaskReference(clause: string): string {
  const rest = clause.replace(TASK_REFERENCE, "");
  return rest === "" ? clause : rest;
}

/** Section and speaker labels: "Review round:", "CI:", "Different thing —", "Separate task, still config:". */
const SECTION_LABEL =
  /^(?:one more |another )?(?:review(?:er)?|review round|review point|review comment|from review|ci|ci failure|lint(?: job)?|conclusion on the pr|(?:different|separate|unrelated|new|another|related|other)(?: [\w-]+){0,2} (?:task|thing|issue|question|bug|one|report|request|area|problem|fix|feature|ticket)|unrelated|related|follow-up|heads-up|one more (?:thing|review point|from review)|last (?:thing|one))\b(?:(?!\b(?:wants?|asks?|says?|said|suggests?|needs?|is|are|should|must|prefers?|would|thinks?)\b)[^:—–.!?]){0,40}?\s*(?:[—–:]|\s-)\s*/i;
/** A deliverable named as a heading: "tests: ...", "Test: ...". What follows defines it. */
export const DELIVERABLE_LABEL = /^(?:(?:t\d+|task \d+)\s+)?(?:(?:for|in) the )?(?:tests?|docs|changelog|fixtures?|docstring)\s*:\s+(?=\S)/i;
/** A lead of scope or condition before the main clause: "If X, ...", "When X, ...", "For t1, ...". */
const CONDITION =
  /^(?:if|when|whenever|unless|once|where|wherever|for|in|on|after|before|while|with|without|as long as|since|given|because|otherwise|at minimum|then|if not|if so)\b[^,]{0,120},\s+(?!(?:and|or|but|plus)\s)/i;
/** Someone's words taken up as an instruction: "the maintainer says keep ...", "reviewer: ...". */
const SAYS = /^(?:(?:the |a |our |one )?(?:maintainers?|reviewers?|reviewer \w+|owner|lead|team|upstream|\w+)\s+)?(?:says?|said|asks?|replied|wrote|answered)(?: that)?\s+/i;

/** The clause without workspace path, label, fillers, polite opener and leading condition: where the verb is. */
export function bareOf(clause: string): string {
  return withoutLabels(clause).replace(POLITE, "");
}

/** The clause without workspace path, labels and fillers; a polite opener stays. */
export function withoutLabels(clause: string): string {
  let rest = clause.replace(WORKSPACE, "").replace(/[.;,!"]+$/, "").replace(/^[—–:,;"-]+\s*/, "");
  for (let previous = ""; previous !== rest; ) {
    previous = rest;
    rest = stripFillers(rest.replace(TASK_LABEL, "").replace(SECTION_LABEL, "").replace(DELIVERABLE_LABEL, ""));
  }
  return rest;
}

/** The clause past a leading condition too: "If not, add X" → "add X". */
export function mainOf(clause: string): string {
  const bare = bareOf(clause);
  // "and to check it still works", split off "the reviewer asks to X": the verb follows "to".
  const after = bareOf(bare.replace(CONDITION, "")).replace(/^to\s+(?=[a-z])/i, "");
  return after === "" ? bare : after;
}

export function stripFillers(text: string): string {
  let rest = text.trim();
  for (let previous = ""; previous !== rest; ) [previous, rest] = [rest, rest.replace(FILLER, "").trim()];
  return rest;
}

/** Whether the clause begins with an instruction verb (known, or verb-shaped before an object). */
export function opensImperative(text: string): boolean {
  const main = mainOf(text);
  return startsWithVerb(main) || verbAfterScope(main);
}

/** Two-word verbs whose first word alone would read otherwise: "look up by code first". */
export const PHRASAL = /^(?:start with|begin with|stick to|spin up|look up|fall back|set up|clean up|split up|wire up|hook up|pick up|back off|bail out|opt (?:in|out)|line up|roll back|tear down|carry over|fill in|spell out|factor out|pull out|move out|strip out|leave out|keep on)\b/i;

function startsWithVerb(main: string): boolean {
  const words = main.split(/\s+/);
  // "open() the file as utf-8": a verb written as a call is still the verb.
  const first = (words[0] ?? "").toLowerCase().replace(/\(\)$/, "").replace(/,$/, "");
  const second = (words[1] ?? "").toLowerCase();
  // "wrap() splits words": a call before its own verb is the subject.
  if (/\(\)$/.test(words[0] ?? "") && /^(?:\w+s|is|are|has|does|doesn't|can't|won't|never|always|still|only|now)$/.test(second)) return false;
  // "CLI: ...", "Expected: ...": a word before a colon is a heading, not a verb.
  if (first === "" || /:$/.test(first)) return false;
  // "Separate deprecation, TargetEncoder: ...", "Docs fix:": a capitalised word and a noun before a comma or colon are a heading.
  if (/^[A-Z]/.test(words[0] ?? "") && /[:,]$/.test(second) && !/^(?:it|them|this|that|these|those|too|now|again|here|there|first|then)[:,]$/.test(second)) return false;
  // "say a command where ...": an example, not an instruction.
  if (first === "say" && /^(?:a|an|the|you)$/.test(second)) return false;
  // "Test it with pytest.warns": a test is asked for.
  if (first === "test" && /^(?:it|them|this|that|the|both|each|every|all)$/.test(second)) return true;
  if (nounLed(words)) return false;
  if (PHRASAL.test(main)) return true;
  if (/^(?:don't|never)$/.test(first)) return !/^(?:you|we|i|they|it|know|think|see)$/.test(second);
  if (first === "do") return /^(?:not|it|this|that|the|a|an|both|all)$/.test(second);
  if (VERBS.has(first)) return !(first === "set" && /^(?:of|to)$/.test(second)) && !/^(?:is|are|was|were|has|have|does|doesn't|should|must|can|will|and|or)$/.test(second);
  return verbShaped(first, second);
}

/**
 * "Test files are generated ...": a first word that is also a noun, followed by the clause's
 * own auxiliary, heads the subject. Only the stretch before a comma or a relative word counts.
 */
function nounLed(words: readonly string[]): boolean {
  const stretch: string[] = [];
  for (const word of words.slice(1, 7)) {
    // A participle, a relative word or code opens a phrase of its own: "add a test showing X is applied".
    if (/^(?:that|which|who|where|when|if|because|so|while|unless|since|as|but|and|or|to|until|before|after)$/i.test(word) || /ing$|[(\u0000]/i.test(word)) break;
    stretch.push(word);
    if (/[,;:]$/.test(word)) break;
  }
  if (/^(?:make|let|have|help|get)$/i.test(words[0] ?? "")) return false;
  // "Flag with default=True ignores flag_value": a verb of its own right after the first words.
  const ownVerb = (word: string, index: number) =>
    index >= 1 && index <= 2 && /s$/.test(word) && !/ss$/.test(word) && [word.slice(0, -1), word.replace(/es$/, "")].some((stem) => VERBS.has(stem)) && !DETERMINER.test(stretch[index - 1] ?? "");
  return stretch.some((word, index) => /^(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|does|doesn't|don't|can't|won't|didn't)$/i.test(word.replace(/[,;:]$/, "")) || ownVerb(word.toLowerCase(), index));
}

const DETERMINER = /^(?:the|a|an|its|their|our|my|your|all|both|any|some|these|those|each|every|no|two|three|more|new|old|other)$/i;

/** "for param values call percent_encoded() unconditionally": an instruction after a short scope without a comma. */
function verbAfterScope(main: string): boolean {
  const words = main.split(/\s+/);
  if (!/^(?:for|in|on|with|inside|within|under|if|when|once|unless|whenever)$/i.test(words[0] ?? "") || main.includes(",")) return false;
  for (let index = 2; index < Math.min(words.length - 1, 8); index += 1) {
    const word = (words[index] ?? "").toLowerCase();
    const previous = words.slice(Math.max(0, index - 2), index).join(" ");
    if (/\b(?:i|we|you|it|they|he|she|this|that|to|not|can|will|should|must|would|could|does|do|did|don't|doesn't|is|are|was|were|be|been|being|gets?|got)$|\b(?:i|we|you|they|he|she)\b/i.test(previous)) continue;
    if (/^(?:who|which|that)$/i.test(words[index - 1] ?? "") || DETERMINER.test(words[index - 1] ?? "")) continue;
    // The verb takes an object, not a preposition or an auxiliary: "in the http adapter treat protocol-relative as relative".
    if (VERBS.has(word) && !/^(?:of|to|in|on|at|by|for|with|from|as|is|are|was|were|be|and|or|,)$/i.test(words[index + 1] ?? "")) return true;
  }
  return false;
}

/** An unknown first word reads as a verb when an object follows it: "regenerate the snapshots", "dedent it". */
function verbShaped(first: string, second: string): boolean {
  if (NOT_A_VERB.has(first) || !/^[a-z][a-z-]{2,}$/.test(first)) return false;
  if (/(?:ed|ing|ly|ness|ment|tion|sion|ity|ous|ful|able|ible|er|or|ist|ism)$/.test(first) || (/s$/.test(first) && !/ss$/.test(first))) return false;
  return /^(?:the|a|an|it|them|these|those|its|their|our|my|your|\u0000\d+\u0000\S*)$/.test(second);
}

/** Whether the text opens a new clause with its own subject and verb ("the indent counts toward width"). */
export function opensStatement(text: string): boolean {
  // "that the tag must match": a complement of the verb before, not a new clause.
  if (/^that\s/i.test(text.trim())) return false;
  if (/^(?:\S+\s+){0,4}?(?:what|how|whether|why|which)\b/i.test(text.trim())) return false;
  // A subject first: "should assert they differ" after "and" shares the subject before it.
  return /^(?:(?:the|a|an|this|that|these|those|its|their|our|each|every|no|any|all|both|some|other|either|neither)\s+)?(?:(?!(?:which|who|whose|where|when)\s)(?!(?<!\b(?:in|on|at|of|for|with|from|to|by|about)\s)that\s)[\w.`'()\u0000/*<>=-]+\s+){1,7}?(?:is|are|isn't|aren't|was|were|has|have|does|do|doesn't|don't|can|can't|cannot|could|will|won't|would|should|shouldn't|must|shall|may|might|needs?|goes|go|stays?|becomes?|counts?|applies|apply|holds?|wins?|gets?|keeps?|returns?|takes?|means?|comes?|ends?|starts?|falls?|matches|works?|uses?|contains?|follows?|shows?|wants?|appears?|remains?|lands?|gives?|produces?|yields?|seems?|looks?)\b/i.test(
    text.trim(),
  );
}

/**
 * Whether the text opens with a deliverable named without a verb: "tests in context_test.go
 * for ...", "a CHANGELOG entry under Changed", "repro test in tests/x.py". The noun heads its
 * phrase (what follows it is a preposition, a name or the end) and the phrase has no verb of
 * its own: "tests/format/..." is a path, "the docstrings say ..." a sentence, "docs request"
 * a request about docs.
 */
export function opensDeliverable(text: string): boolean {
  const phrase = bareOf(text).replace(/^(?:also|and|plus)\s+/i, "");
  const words = phrase.split(/\s+/);
  for (let index = 0; index < Math.min(words.length, 4); index += 1) {
    const word = words[index] ?? "";
    if (/,$/.test(word) && index < words.length - 1 && !isDeliverableWord(word)) return false;
    // "a versionchanged note in docs/...", "a comment above the loop": a note or comment placed somewhere.
    const placed = DELIVERABLE_HEAD.test(word) && /^(?:in|under|above|below|on|next|beside|at)\b/i.test(words[index + 1] ?? "");
    if (!isDeliverableWord(word) && !placed) continue;
    // "changelog entry", "test case": the noun after heads the phrase.
    if (DELIVERABLE_HEAD.test((words[index + 1] ?? "").replace(/[,:;.]+$/, ""))) index += 1;
    if (!HEAD_ENDS.test(words.slice(index + 1).join(" ")) || !modifiersOnly(words.slice(0, index).filter((modifier) => !isDeliverableWord(modifier)))) return false;
    // A verb before the first relative word or comma makes the noun a subject: "every relative link ... breaks".
    // "every relative link in our templates breaks": a quantified noun is a statement's subject, not a deliverable.
    if (/^(?:every|each|any|all|no)$/i.test(words[0] ?? "")) return false;
    return !hasAuxiliary(headOf(words.slice(index + 1).join(" ")));
  }
  return false;
}

/** A phrase up to its first relative word or comma: "an object that has seek" → "an object". */
function headOf(text: string): string {
  return text.split(/\b(?:that|which|where|whose|who|so|because|when|if|with|covering|checking|asserting)\b|[,;:—–]|\s\(/)[0] ?? "";
}

function isDeliverableWord(word: string): boolean {
  const bare = word.replace(/[,:;.]+$/, "");
  return (!bare.includes("/") && DELIVERABLE_WORD.test(bare)) || /^(?:changelog[._/-]\S+|changes(?:\.\w+)?|history\.md|news\.\w+|\S+\/\S*entry|docs?\/\S+)$/i.test(bare);
}

const DELIVERABLE_WORD = new RegExp(`^(?:${DELIVERABLE_NOUN.source})$`, "i");
/** What may follow the head noun of a deliverable: the end, a preposition, a participle, a file name, "too". */
const HEAD_ENDS =
  /^(?:$|(?:for|in|on|under|only|based|built|using|named|called|similar|with|about|that|which|where|whose|to|too|as|from|of|against|covering|checking|asserting|referencing|showing|spelling|next|beside|besides|above|below|at|per|into|inside|near|before|after|so|and|plus|\+|—|–|-|\(|\u0000|also|then|first|please|here|there|now|explaining|describing|documenting|pointing|like)\b|[,:;.(+—–]|\S+\.\w{1,5}\b|\d)/i;

/** Determiners, numbers, names and adjectives before a deliverable noun; a verb there makes it a sentence. */
function modifiersOnly(words: readonly string[]): boolean {
  // A participle right before the noun is an adjective ("failing test", "versionchanged note"); further back it is a verb.
  return words.every(
    (word, index) =>
      !/[,:;]$/.test(word) && !VERBS.has(word.toLowerCase()) && !/^(?:is|are|was|were|has|have|i|we|you|they|it|it's|that's|there's|no|not)$/i.test(word) && (index === words.length - 1 || !/(?:ed|ing)$/i.test(word)),
  );
}

/** An auxiliary or modal in a stretch of words: a noun before it is a subject ("the tests are slow"). */
function hasAuxiliary(text: string): boolean {
  return /\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|does|do|did|doesn't|don't|didn't|can|can't|cannot|could|will|won't|would|should|must|may|might)\b/i.test(text);
}

/** A finite verb in a stretch of words: an auxiliary, a past tense, or a present form of a known verb. */
function hasFiniteVerb(text: string): boolean {
  return (
    /\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|does|do|did|doesn't|don't|didn't|can|can't|cannot|could|will|won't|would|should|must|may|might)\b/i.test(text) ||
    hasPresentVerb(text)
  );
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

/** The clause without workspace path and task or section labels; a deliverable heading ("tests:") stays. */
export function withoutLabelsButDeliverable(clause: string): string {
  return clause.replace(WORKSPACE, "").replace(TASK_LABEL, "").replace(SECTION_LABEL, "");
}

/** Reproduction steps, examples and observed output, under their usual headings. */
export const REPRO_LEAD = /^(?:repro|reproduction|to reproduce|steps(?: to reproduce)?|how to reproduce|minimal(?: repro| example| case)?|example|e\.g\.|for example|output|actual|actual behaviou?r|got|traceback|log|stack ?trace|environment|versions?)\s*:/i;

function isOneOff(text: string): boolean {
  if (CHECK_THAT.test(text)) return false;
  return ONE_OFF.test(text) || (DEBUG_AID.test(text) && /^(?:log|print|put|add|emit|dump|write)\b/i.test(text)) || SESSION_ARTIFACT.test(text) || TRIAL.test(text);
}

/** Words for the issue tracker, not the repository: "include the snippet in the reply", "leave a review comment". */
const SESSION_ARTIFACT = /\b(?:in (?:the|your|my) (?:reply|answer|pr description)|in your response|review comment|comment on the (?:issue|pr|ticket|thread)|as a (?:draft )?(?:pr|pull request))\b/i;
/** "Drop default= and it works": a condition of an observation, not an instruction. */
const TRIAL = /(?:,\s*|\s)and (?:it|everything|the \w+) (?:works|passes|is fine|goes away|disappears|succeeds)\b/i;

/** "implement it", "ok fix it there": a go-ahead whose content is elsewhere. */
function isBareGoAhead(main: string): boolean {
  // Only verbs that say nothing of their own: "wrap it" or "normalise them" still say what to do.
  const verb = /^(?:do|redo|implement|start|go|change|fix|handle|address|tackle|finish|continue|proceed|rework|apply|make|write|patch|add)(?:\s+(?:it|that|this|them|those|these))?(?:\s+(?:there|now|then|too|as well|please|here|up|first|properly|like that|like this|that way|this way|again))*$/i;
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
  if (/^(?:wants?|suggests|proposes|recommends|prefers?|insists?|asks?|asked|requests?|requested)\b/i.test(modal[0]) && !PERSON.test(text.slice(0, modal.index))) return false;
  if (REPORTED.test(text.slice(0, modal.index))) return false;
  if (HEDGE.test(text) && !/\b(?:should|must|needs? to|has to|have to|want|would like|'d like)\b/i.test(text)) return false;
  // Descriptions that mention a tool's demand: "Postgres complains that a column has to appear ...".
  if (/\b(?:complains?|errors? (?:out )?(?:with|saying)|says|said|warns?|message)\b[^.]*$/i.test(text.slice(0, modal.index))) return false;
  // An impersonal "you" describes today's workaround: "to get the hidden ones you have to subtract".
  if (/^(?:to \w+|if you|when you|unless you)\b[^,]*?,?\s*you (?:have to|need to|must|can)\b/i.test(text)) return false;
  // "any class should do", "that would be enough": sufficiency, not a target.
  if (/\b(?:should|would|will) (?:do|suffice|be enough|be plenty)\s*[.!]?$/i.test(text)) return false;
  // "That needs a maintainer decision": a need of the discussion, not of the code.
  if (/^needs?\b/i.test(modal[0]) && /^\s*(?:a|an|the|some|more)?\s*(?:\w+\s+)?(?:decision|discussion|review|input|thought|answer|investigation|look|confirmation|consensus|info|information)\b/i.test(text.slice(modal.index + modal[0].length))) return false;
  // A gerund subject describes a circumstance: "Reproducing needs a server".
  if (/^\w+ing\b/i.test(text) && modal.index > 0 && /^needs?\b/i.test(modal[0])) return false;
  // A want of information or of session work from us is not a requirement: "I'd like to see how hard it would be".
  const personal = /(?:^|\b(?:i|we|you)\s+)$/i.test(text.slice(0, modal.index)) || /^(?:i|we)\b/i.test(text);
  const wanted = text.slice(modal.index + modal[0].length).replace(/^\s*(?:(?:you|us|me|it|them)\s+)?(?:to\s+)?/i, "");
  return !(personal && (isOneOff(wanted) || /^(?:know|understand|hear|learn|see|figure|find out|check whether|confirm|ask)\b/i.test(wanted)));
}

/** Someone in the clause before "wants": "the maintainer is fine with X but wants Y", "I want", "RonnyPfannschmidt wants". */
const PERSON_WORD = /\b(?:i|we|you|they|he|she|users?|reviewers?|maintainers?|reporters?|callers?|customers?|people|folks|team|lead|someone|everyone|nobody|owners?|authors?|contributors?|developers?|colleagues?|qa)\b/i;
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
const LOCATION = /\b(?:lives?|sits?|is defined|are defined|is implemented|are implemented|is set up|are set up|is computed|gets computed|is handled|are handled|is called|happens|is done|is in|are in|comes from)\b[^.]*(?:\/|\.\w{1,4}\b|\bin the\b|\bcode\b|\bmodule\b|\bfile\b)|^see\b/i;
/** Anaphoric evaluations and reasons: "it's a visible behaviour change", "that's the point". */
const JUSTIFICATION = /^(?:it's|it is|that's|that is|this is(?! only)|which|because|since|as|so that|otherwise|the reason|the point)\b/i;
const NARRATIVE = /^(?:i|we|you|my|our|your|they|he|she|someone|people|users)\b/i;

/** A general statement of how things are to be: present tense, no example output, no background. */
export function isRuleStatement(bare: string, raw: string = bare): boolean {
  if (wordCount(bare) < 3 || isPleasantry(bare) || !hasPresentVerb(bare)) return false;
  // Fillers count here: "Right now X is overwritten", "Now it produces a double slash" describe today.
  if (DESCRIPTION.test(raw) || /^(?:now|right now)\b/i.test(raw.replace(WORKSPACE, "").trim()) || LOCATION.test(bare) || JUSTIFICATION.test(bare) || NARRATIVE.test(bare) || HEDGE.test(bare) || REPORTED.test(bare)) return false;
  return !/\b(?:i|we|you|my|our|your)\b/i.test(bare) && !WANT_IN_COMPLAINT.test(bare);
}

const COPULAS = new Set("is are isn't aren't can cannot can't may will won't does doesn't do don't has have gets get".split(" "));
/** Plural subjects take the bare form: "blank lines stay", "both flags count". */
const BARE_PRESENT = new Set("stay go become count apply hold win come end start fall match remain appear belong mean take".split(" "));

/** A verb in the present tense: a rule is stated in it ("A holiday is not a working day"). */
function hasPresentVerb(text: string): boolean {
  // Words of paths, names and code ("routes_test.go", `f()`) are not verbs.
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => !/[/._()=\u0000\d]/.test(word))
    .map((word) => word.replace(/[^a-z']/g, ""));
  return words.some(
    (word) => COPULAS.has(word) || BARE_PRESENT.has(word) || (/s$/.test(word) && [word.slice(0, -1), word.slice(0, -2), word.replace(/ies$/, "y")].some((stem) => VERBS.has(stem) || BARE_PRESENT.has(stem))),
  );
}

export function isPleasantry(text: string): boolean {
  return (text.toLowerCase().match(/[a-z']+/g) ?? []).every((word) => PLEASANT.has(word));
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}
