import { bareOf, mainOf } from "./clause-labels.js";
import { DELIVERABLE_HEAD, DELIVERABLE_NOUN, NOT_A_VERB, VERBS } from "./requirement-cues.js";

/**
 * The grammatical shape of a clause's opening, told without a parser: does it open with an
 * instruction verb, with a subject and its verb, or with a deliverable named without a
 * verb? Words that are both nouns and verbs ("flag", "test", "snapshots") are told apart
 * by what follows them.
 */

/** Whether the clause begins with an instruction verb (known, or verb-shaped before an object). */
export function opensImperative(text: string): boolean {
  const main = mainOf(text);
  return startsWithVerb(main) || verbAfterScope(main);
}

/** Two-word verbs whose first word alone would read otherwise: "look up by code first". */
export const PHRASAL =
  /^(?:start with|begin with|stick to|spin up|look up|fall back|set up|clean up|split up|wire up|hook up|pick up|back off|bail out|opt (?:in|out)|line up|roll back|tear down|carry over|fill in|spell out|factor out|pull out|move out|strip out|leave out|keep on)\b/i;

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
  // A known verb before code is still the verb: "Implement `slugify(...)`:", "Write `kvconf`, a parser".
  const codeObject = VERBS.has(first) && second.startsWith("\u0000");
  if (
    /^[A-Z]/.test(words[0] ?? "") &&
    /[:,]$/.test(second) &&
    !codeObject &&
    !/^(?:it|them|this|that|these|those|too|now|again|here|there|first|then)[:,]$/.test(second)
  )
    return false;
  // "say a command where ...": an example, not an instruction.
  if (first === "say" && /^(?:a|an|the|you)$/.test(second)) return false;
  // "Test it with pytest.warns": a test is asked for.
  if (first === "test" && /^(?:it|them|this|that|the|both|each|every|all)$/.test(second)) return true;
  if (nounLed(words)) return false;
  if (PHRASAL.test(main)) return true;
  if (/^(?:don't|never)$/.test(first)) return !/^(?:you|we|i|they|it|know|think|see)$/.test(second);
  if (first === "do") return /^(?:not|it|this|that|the|a|an|both|all)$/.test(second);
  if (VERBS.has(first))
    return !(first === "set" && /^(?:of|to)$/.test(second)) && !/^(?:is|are|was|were|has|have|does|doesn't|should|must|can|will|and|or)$/.test(second);
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
    if (/^(?:that|which|who|where|when|if|because|so|while|unless|since|as|but|and|or|to|until|before|after)$/i.test(word) || /ing$|[(\u0000]/i.test(word))
      break;
    stretch.push(word);
    if (/[,;:]$/.test(word)) break;
  }
  if (/^(?:make|let|have|help|get)$/i.test(words[0] ?? "")) return false;
  // "Flag with default=True ignores flag_value": a verb of its own right after the first words.
  const ownVerb = (word: string, index: number) =>
    index >= 1 &&
    index <= 2 &&
    /s$/.test(word) &&
    !/ss$/.test(word) &&
    [word.slice(0, -1), word.replace(/es$/, "")].some((stem) => VERBS.has(stem)) &&
    !DETERMINER.test(stretch[index - 1] ?? "");
  return stretch.some(
    (word, index) =>
      /^(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|does|doesn't|don't|can't|won't|didn't)$/i.test(word.replace(/[,;:]$/, "")) ||
      ownVerb(word.toLowerCase(), index),
  );
}

const DETERMINER = /^(?:the|a|an|its|their|our|my|your|all|both|any|some|these|those|each|every|no|two|three|more|new|old|other)$/i;

/** "for param values call percent_encoded() unconditionally": an instruction after a short scope without a comma. */
function verbAfterScope(main: string): boolean {
  const words = main.split(/\s+/);
  if (!/^(?:for|in|on|with|inside|within|under|if|when|once|unless|whenever)$/i.test(words[0] ?? "") || main.includes(",")) return false;
  for (let index = 2; index < Math.min(words.length - 1, 8); index += 1) {
    const word = (words[index] ?? "").toLowerCase();
    const previous = words.slice(Math.max(0, index - 2), index).join(" ");
    if (
      /\b(?:i|we|you|it|they|he|she|this|that|to|not|can|will|should|must|would|could|does|do|did|don't|doesn't|is|are|was|were|be|been|being|gets?|got)$|\b(?:i|we|you|they|he|she)\b/i.test(
        previous,
      )
    )
      continue;
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
    if (!HEAD_ENDS.test(words.slice(index + 1).join(" ")) || !modifiersOnly(words.slice(0, index).filter((modifier) => !isDeliverableWord(modifier))))
      return false;
    // A verb before the first relative word or comma makes the noun a subject: "every relative link ... breaks".
    // "every relative link in our templates breaks": a quantified noun is a statement's subject, not a deliverable.
    if (/^(?:every|each|any|all|no)$/i.test(words[0] ?? "")) return false;
    return !hasAuxiliary(headOf(words.slice(index + 1).join(" ")));
  }
  return false;
}

/** A phrase up to its first relative word or comma: "an object that has seek" → "an object". */
export function headOf(text: string): string {
  return text.split(/\b(?:that|which|where|whose|who|so|because|when|if|with|covering|checking|asserting)\b|[,;:—–]|\s\(/)[0] ?? "";
}

function isDeliverableWord(word: string): boolean {
  const bare = word.replace(/[,:;.]+$/, "");
  return (
    (!bare.includes("/") && DELIVERABLE_WORD.test(bare)) ||
    /^(?:changelog[._/-]\S+|changes(?:\.\w+)?|history\.md|news\.\w+|\S+\/\S*entry|docs?\/\S+)$/i.test(bare)
  );
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
      !/[,:;]$/.test(word) &&
      !VERBS.has(word.toLowerCase()) &&
      !/^(?:is|are|was|were|has|have|i|we|you|they|it|it's|that's|there's|no|not)$/i.test(word) &&
      (index === words.length - 1 || !/(?:ed|ing)$/i.test(word)),
  );
}

/** An auxiliary or modal in a stretch of words: a noun before it is a subject ("the tests are slow"). */
function hasAuxiliary(text: string): boolean {
  return /\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|does|do|did|doesn't|don't|didn't|can|can't|cannot|could|will|won't|would|should|must|may|might)\b/i.test(
    text,
  );
}

/** A finite verb in a stretch of words: an auxiliary, a past tense, or a present form of a known verb. */
export function hasFiniteVerb(text: string): boolean {
  return (
    /\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|does|do|did|doesn't|don't|didn't|can|can't|cannot|could|will|won't|would|should|must|may|might)\b/i.test(
      text,
    ) || hasPresentVerb(text)
  );
}

const COPULAS = new Set("is are isn't aren't can cannot can't may will won't does doesn't do don't has have gets get".split(" "));
/** Plural subjects take the bare form: "blank lines stay", "both flags count". */
const BARE_PRESENT = new Set("stay go become count apply hold win come end start fall match remain appear belong mean take".split(" "));

/** A verb in the present tense: a rule is stated in it ("A holiday is not a working day"). */
export function hasPresentVerb(text: string): boolean {
  // Words of paths, names and code ("routes_test.go", `f()`) are not verbs.
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => !/[/._()=\u0000\d]/.test(word))
    .map((word) => word.replace(/[^a-z']/g, ""));
  return words.some(
    (word) =>
      COPULAS.has(word) ||
      BARE_PRESENT.has(word) ||
      (/s$/.test(word) && [word.slice(0, -1), word.slice(0, -2), word.replace(/ies$/, "y")].some((stem) => VERBS.has(stem) || BARE_PRESENT.has(stem))),
  );
}
