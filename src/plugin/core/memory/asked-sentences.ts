import { clauseKind, isPleasantry, REPRO_LEAD } from "./clause-kind.js";
import { bareOf, withoutLabels } from "./clause-labels.js";
import { hasFiniteVerb, opensImperative } from "./clause-shape.js";
import { clausesOf, type Sentence, sentencesOf } from "./clause-split.js";
import { withoutCueWords } from "./cue-words.js";
import { DESCRIBING_LEAD, plainlyNot } from "./plainly-not.js";
import { isPluginCommand } from "./plugin-commands.js";
import { isHeading, type MaskedRequest, type RequestBlock, requestBlocks } from "./request-blocks.js";
import { HEDGE, REPORTED, WORKSPACE } from "./requirement-cues.js";
import { spelledOut } from "./shorthand.js";

/** A sentence of a request that asks for something, as the record keeps it. */
export interface AskedSentence {
  /** The user's sentence, code restored, on one line, its cue words dropped ("separate thing:", "also"). */
  text: string;
  /**
   * It points back at something it does not name ("add a test for that"): the record adds
   * what it points at (resolve-references.ts).
   */
  pointsBack: boolean;
}

/**
 * The sentences of a request that ask for something, whole and in the user's words. The
 * job is to keep every sentence that asks and drop what plainly does not: questions,
 * thanks, narration of what happened or was tried, descriptions of today's behaviour,
 * reproduction steps and code, one-off instructions about the session's work ("run the
 * tests") and commands to the plug-in ("show t1"). A sentence is kept whole, with every
 * requirement in it: cutting it into clauses is what lost requirements before.
 * Chat shorthand ("pls dont", "shld") is read spelled out and kept as typed.
 */
export function askedSentences(text: string): AskedSentence[] {
  if (isPluginCommand(text)) return [];
  const gherkin = /^\s*(?:[-*]\s+)?then\b/im.test(text);
  const prepared = adoptedQuotes(lineBreaks(text.replace(WORKSPACE, ""), gherkin));
  const typed = requestBlocks(prepared);
  const read = alignedReading(typed.blocks, requestBlocks(spelledOut(prepared)).blocks);
  const hasContext = typed.blocks.length > 1 || typed.blocks.some((block) => sentencesOf(block.text).length > 1);
  const first = pass(typed, read, hasContext, gherkin, new Set());
  const asked = new Set(first.map((sentence) => sentence.block));
  return (asked.size === 0 ? first : pass(typed, read, hasContext, gherkin, asked)).map(({ text, pointsBack }) => ({ text, pointsBack }));
}

/**
 * One pass over the blocks. `asked` holds the blocks where a first pass found an ask: there a
 * plain statement of how things are to be asks wherever it stands in the paragraph, not only
 * after the ask ("Minimum TypeScript stays 4.9. Don't use X."); so does a list item once the
 * request asks anything.
 */
function pass(
  typed: MaskedRequest,
  read: readonly RequestBlock[],
  hasContext: boolean,
  gherkin: boolean,
  asked: ReadonlySet<number>,
): Array<AskedSentence & { block: number }> {
  const out: Array<AskedSentence & { block: number }> = [];
  let specifying = false;
  typed.blocks.forEach((block, blockIndex) => {
    const readBlock = read[blockIndex] ?? block;
    if (block.title || isHeading(block.text)) return;
    if (block.item && asked.size > 0) specifying = true;
    const list = listKind(readBlock, hasContext);
    // Within a paragraph, a verbless line after an ask goes on specifying it: "Versioning on, SSE-KMS".
    let askedHere = false;
    const readPieces = sentencesOf(readBlock.text);
    const pieces = sentencesOf(block.text);
    // A sentence is kept whole: its pieces split at ";" ask together when one of them asks.
    for (const whole of new Set(pieces.map((piece) => piece.whole))) {
      const verdictOf = (piece: Sentence, index: number) =>
        SIGNATURE.test(typed.unmask(piece.text)) && !piece.question
          ? "asks"
          : asks(readPieces[index] ?? piece, { hasContext, specifying, askedHere, list, gherkin });
      const parts = pieces.flatMap((piece, index) => (piece.whole === whole ? [{ piece, verdict: verdictOf(piece, index) }] : []));
      if (!parts.some((part) => part.verdict === "asks")) continue;
      // A question after ";" is asked of the agent, not of the code: it stays out.
      const text = parts
        .filter(({ piece, verdict }) => verdict === "asks" || !piece.question)
        .map(({ piece }) => piece.text)
        .join("; ");
      const shown = withoutCueWords(typed.unmask(text).replace(/\s+/g, " ").trim());
      if (shown === "" || isPluginCommand(shown)) continue;
      out.push({ text: shown, pointsBack: pointsBack(shown), block: blockIndex });
      specifying = true;
      askedHere = true;
    }
  });
  return out;
}

/**
 * Breaks that the text implies but does not write: an emoji between two thoughts ("cut off
 * lol 😅 pls fix") and each Gherkin step on its own line ("Given ... Then ... And ...").
 */
function lineBreaks(text: string, gherkin: boolean): string {
  const spaced = text.replace(/(\p{Extended_Pictographic}\uFE0F?)[ \t]+(?=\S)/gu, "$1\n\n");
  return gherkin ? spaced.replace(/\n[ \t]*(?=(?:given|when|then|and|but)\b)/gi, "\n\n") : spaced;
}

/** "`wrap(text, width) -> list[str]`": a function's signature states the API the work must have. */
const SIGNATURE = /`[\w.]+\([^`]*\)\s*(?:->|:)\s*[^`\s][^`]*`/;

/** "Agree with both, go.", "Go ahead and implement that.": the user takes up the quoted words as their own. */
const ADOPTS =
  /\b(?:go ahead|agree(?:d)? with (?:both|all|them|this|that|it)|(?:do|implement|address|apply|fix) (?:that|this|it|both|them|all(?: of them)?|these|those)\b|please do|as (?:they|he|she|the maintainer|the reviewer) (?:says?|suggests?|asks?)|do what (?:they|he|she) (?:say|says|suggest|suggests|ask|asks))/i;

/**
 * Quoted lines ("> ...") are someone else's words and ask nothing of the work, unless the
 * user adopts them in their own words; then they are read as the user's.
 */
function adoptedQuotes(text: string): string {
  const own = text
    .split("\n")
    .filter((line) => !/^\s*>/.test(line))
    .join("\n");
  return ADOPTS.test(own) ? text.replace(/^(\s*)>\s?/gm, "$1") : text;
}

/** The spelled-out blocks when they split as the typed ones do (shorthand changes words only); else the typed ones. */
function alignedReading(typed: readonly RequestBlock[], spelled: readonly RequestBlock[]): readonly RequestBlock[] {
  const same =
    typed.length === spelled.length && typed.every((block, index) => sentencesOf(block.text).length === sentencesOf(spelled[index]?.text ?? "").length);
  return same ? spelled : typed;
}

/** What a list item's list is: a specification (acceptance criteria, settings), what is (steps, environment, attempts), or neither. */
type ListKind = "spec" | "repro" | "none";

/** Leads that announce a specification: "Acceptance criteria:", "Definition of done", "It needs:". */
const SPEC_LEAD =
  /\b(?:acceptance criteria|criteria|definition of done|dod|requirements?|reqs|must[- ]haves?|spec(?:ification)?|rules?|expected(?: behaviou?r| result)?|to ?do|checklist|scope|deliverables?|needs?|should|must|wants?|would like|please|make sure|ensure|ac\d*|goals?|constraints?|behaviou?r)\b/i;
const REPRO_LIST = /\b(?:steps|repro|reproduce|reproduction|to see it|how to trigger)\b/i;

function listKind(block: RequestBlock, hasContext: boolean): ListKind {
  if (!block.item) return "none";
  // What announces the list is the lead's last sentence ("... was off. Action items:").
  const lead = sentencesOf(block.lead ?? "").at(-1)?.text ?? "";
  if (REPRO_LIST.test(lead) || REPRO_LEAD.test(lead) || DESCRIBING_LEAD.test(lead)) return "repro";
  // A list a lead introduces is what the lead announces: in a request, mostly what is wanted.
  if (SPEC_LEAD.test(lead) || (lead !== "" && hasContext)) return "spec";
  return "none";
}

/** Sentences that open a standing instruction anywhere near their start: "For this repo from now on: ...". */
const STANDING_ANYWHERE = /^.{0,40}\b(?:from now on|going forward|from here on|for (?:all|each|every) (?:of )?(?:these|the remaining|remaining|future|new)\b)/i;
/** "run the e2e job only on PRs": how a job runs is configuration, not a one-off run. */
const RUN_POLICY =
  /^(?:also |and )?run\b.*\b(?:only|on every|on each|on (?:prs?|pull requests?|push(?:es)?|merges?|tags?|main|release)|nightly|daily|weekly|hourly|on a schedule|in ci|as part of|before every|after every|in parallel|serially)\b/i;
/** Gherkin: "Then"/"And"/"But" lines state the outcome; "Given"/"When" set it up. */
const GHERKIN_OUTCOME = /^(?:then|and|but)\s/i;
const GHERKIN_SETUP = /^(?:given|when|scenario(?: outline)?|feature|background|examples)\b/i;

interface Context {
  hasContext: boolean;
  specifying: boolean;
  askedHere: boolean;
  list: ListKind;
  gherkin: boolean;
}

/** Whether one sentence asks for something (see askedSentences). */
function asks(sentence: Sentence, context: Context): "asks" | "no" {
  const bare = bareOf(sentence.text);
  const checkbox = /^\[( |x)\]\s*/i.exec(bare);
  if (checkbox) return checkbox[1] === " " && !sentence.question ? "asks" : "no";
  if (bare === "" || isPleasantry(bare) || !/[a-z]{2}/i.test(bare)) return "no";
  if (/^[\w\s-]{1,30}:$/.test(bare.trim())) return "no";
  if (RUN_POLICY.test(bare) || REVIEW_LABEL.test(bare) || SCOPE_DECISION.test(bare)) return sentence.question ? "no" : "asks";
  if (context.list === "repro" || sentence.repro || REPRO_LEAD.test(bare) || plainlyNot(bare) || plainlyNot(sentence.text)) return "no";
  if (context.gherkin && GHERKIN_SETUP.test(bare)) return "no";
  if (context.gherkin && GHERKIN_OUTCOME.test(sentence.text.trim())) return "asks";
  if (STANDING_ANYWHERE.test(sentence.text) || USER_STORY.test(bare)) return "asks";
  if (STAYS.test(bare) && !sentence.question && !sentence.hedged) return "asks";
  // "... found these, please address:" announces the list that asks; it asks nothing itself.
  if (POLITE_INSIDE.test(sentence.text) && !/:\s*$/.test(sentence.text)) return "asks";
  const clauses = clausesOf(sentence);
  const kinds = clauses.map((clause) => clauseKind(clause, { ...sentence, hasContext: context.hasContext }));
  if (kinds.includes("requirement")) return "asks";
  // "I want X, maybe with Y?": a want with a suggestion asked after it.
  const head = sentence.text.replace(/,\s*(?:maybe|perhaps|or|possibly|ideally|right)\b[^,]*\?\s*$/i, "");
  if (sentence.question && head !== sentence.text && WANT.test(head) && clauseKind(head, {}) === "requirement") return "asks";
  if ((sentence.question && !sentence.polite) || sentence.hedged || HEDGE.test(bare) || REPORTED.test(bare)) return "no";
  if (context.list === "spec") return "asks";
  // A statement of how things are to be asks where the request already specifies the target.
  if (kinds.includes("rule") && context.specifying) return "asks";
  const verbless = !hasFiniteVerb(bare) && !opensImperative(bare);
  if (verbless && context.askedHere && wordCount(bare) >= 2) return "asks";
  const parts = sentence.text.split(/,\s+/);
  return verblessAsk(withoutLabels(sentence.text)) || parts.some((part) => ARROW.test(part) && verblessAsk(withoutLabels(part))) ? "asks" : "no";
}

/** "As a driver I want to see X so that Y": a user story states what is wanted. */
const USER_STORY = /^as an? [\w\s-]{1,40}?,? (?:i|we) (?:want|need|would like|'d like|can|should|must)\b/i;
/** "... is cut off lol, please fix": a polite ask after a description, in one breath. */
const POLITE_INSIDE = /(?:^|[,;:—–-]\s*|\s)please\s+(?!(?:see|note|find|let me|tell|explain|advise|confirm|check|look|help)\b)[a-z]+/i;
const ARROW = /→|->|=>/;
/** Review comments labelled by weight: "nit: getUsr → getUser", "blocking: ...". */
const REVIEW_LABEL = /^(?:nit|nitpick|suggestion|blocking|blocker|must[- ]fix|required|todo|fixme)\s*:\s*\S/i;
/** "Out of scope: X", "Later (not MVP): Y", "Decided: Z": a decision about what the work does or leaves out. */
const SCOPE_DECISION =
  /^(?:(?:out of scope|not in scope|non-goals?|later \(not (?:mvp|v1|now)\)|not (?:for )?(?:mvp|v1|now)|decided|decision|agreed|resolution|verdict)\s*:|(?:we|i)(?:'re| are|'ll| will) (?:replacing|switching|moving|going with|dropping|removing|deprecating|keeping)\b)/i;
/** "Minimum TypeScript stays 4.9", "the return type remains an Angle": what the change must leave as it is. */
const STAYS = /\b(?:stays?|remains?|is kept|are kept|keeps? working)\b(?! (?:open|broken|red|failing|flaky)\b)/i;
const WANT = /\b(?:i|we) (?:want|need|would like|'d like)\b|\b(?:should|must|needs? to|has to|have to)\b/i;

/**
 * A verbless line that can only be a want: "429 not 500 when the bucket's empty",
 * "Retry-After header too". A noun phrase alone ("the parser") or a heading is not.
 */
function verblessAsk(text: string): boolean {
  const words = wordCount(text);
  if (words < 2 || words > 16 || hasFiniteVerb(text) || opensImperative(text)) return false;
  return /\b(?:too|as well|not|no|never|only|instead of|rather than|always|both|either|each|every|max|min|at most|at least)\b|[→=]|->/i.test(text);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/** "add a test for that", "do the same for it": an object pronoun with nothing it could point at in the sentence. */
function pointsBack(text: string): boolean {
  return (
    /\b(?:for|of|to|with|on|about|cover|covers|test|tests|document|handle|fix|do|does)\s+(?:that|this|it|them|those|these|the same)\s*(?:too|as well|also|case|one|bit|part|behaviou?r|change|fix)?\s*[.!]?$/i.test(
      text,
    ) || /^(?:same|ditto)\b/i.test(text)
  );
}
