import { clauseKind, isPleasantry, REPRO_LEAD } from "./clause-kind.js";
import { bareOf, withoutLabels } from "./clause-labels.js";
import { hasFiniteVerb, opensImperative } from "./clause-shape.js";
import { clausesOf, type Sentence, sentencesOf } from "./clause-split.js";
import { withoutCueWords } from "./cue-words.js";
import { isPluginCommand } from "./plugin-commands.js";
import { requestBlocks } from "./request-blocks.js";
import { HEDGE, REPORTED, WORKSPACE } from "./requirement-cues.js";

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
 */
export function askedSentences(text: string): AskedSentence[] {
  if (isPluginCommand(text)) return [];
  const { blocks, unmask } = requestBlocks(text.replace(WORKSPACE, ""));
  const hasContext = blocks.length > 1 || blocks.some((block) => sentencesOf(block.text).length > 1);
  const out: AskedSentence[] = [];
  let specifying = false;
  for (const block of blocks) {
    if (block.title) continue;
    const underTarget = block.item && (specifying || (block.lead !== undefined && sentencesOf(block.lead).some((lead) => asks(lead, hasContext) === "asks")));
    for (const sentence of sentencesOf(block.text)) {
      const verdict = asks(sentence, hasContext);
      if (verdict === "no" || (verdict === "rule" && !specifying && !underTarget)) continue;
      const shown = withoutCueWords(unmask(sentence.text).replace(/\s+/g, " ").trim());
      if (shown === "" || isPluginCommand(shown)) continue;
      out.push({ text: shown, pointsBack: pointsBack(shown) });
      specifying = true;
    }
  }
  return out;
}

/**
 * Whether one sentence asks: `asks` when one of its clauses is a requirement on its own,
 * `rule` when it states how things are to be and asks only where the request already
 * specifies the target, `no` when it plainly asks for nothing.
 */
function asks(sentence: Sentence, hasContext: boolean): "asks" | "rule" | "no" {
  const bare = bareOf(sentence.text);
  if (bare === "" || isPleasantry(bare) || !/[a-z]{2}/i.test(bare)) return "no";
  if (sentence.repro || REPRO_LEAD.test(bare)) return "no";
  const kinds = clausesOf(sentence).map((clause) => clauseKind(clause, { ...sentence, hasContext }));
  if (kinds.includes("requirement")) return "asks";
  if ((sentence.question && !sentence.polite) || sentence.hedged || HEDGE.test(bare) || REPORTED.test(bare)) return "no";
  if (kinds.includes("rule")) return "rule";
  return verblessAsk(withoutLabels(sentence.text)) ? "asks" : "no";
}

/**
 * A verbless line that can only be a want: "429 not 500 when the bucket's empty",
 * "Retry-After header too". A noun phrase alone ("the parser") or a heading is not.
 */
function verblessAsk(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (words.length < 2 || words.length > 16 || hasFiniteVerb(text) || opensImperative(text)) return false;
  return /\b(?:too|as well|not|no|never|only|instead of|rather than|always|both|either|each|every|max|min|at most|at least)\b|[→=]|->/i.test(text);
}

/** "add a test for that", "do the same for it": an object pronoun with nothing it could point at in the sentence. */
function pointsBack(text: string): boolean {
  return /\b(?:for|of|to|with|on|about|cover|covers|test|tests|document|handle|fix|do|does)\s+(?:that|this|it|them|those|these|the same)\s*(?:too|as well|also|case|one|bit|part|behaviou?r|change|fix)?\s*[.!]?$/i.test(text) || /^(?:same|ditto)\b/i.test(text);
}
