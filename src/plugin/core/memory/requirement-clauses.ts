import { clauseKind, isRuleStatement } from "./clause-kind.js";
import { bareOf, withoutTaskReference } from "./clause-labels.js";
import { opensImperative, opensStatement } from "./clause-shape.js";
import { clausesOf, sentencesOf } from "./clause-split.js";
import { type RequestBlock, requestBlocks } from "./request-blocks.js";
import { DELIVERABLE_NOUN, MODAL, WORKSPACE } from "./requirement-cues.js";

/**
 * The requirement clauses of a user request: what the user wants to hold after the work
 * ("add X", "it must Y", "keep Z", "from now on ..."), as opposed to what they describe
 * (today's behaviour, reproduction steps, background), ask, or want done once ("run the
 * tests"). A constraint of a task record is one such clause, whole, with its conditions.
 *
 * The steps: blocks (paragraphs and list items, code left out) → sentences → clauses
 * (clause-split.ts) → what each clause is (clause-kind.ts). A plain statement counts only
 * once the request has stated a target, as a further rule of it ("A token made only of
 * punctuation is not a word"); before that, statements describe.
 */
export function requirementClauses(text: string): string[] {
  const { blocks, unmask } = requestBlocks(text.replace(WORKSPACE, ""));
  const hasContext = blocks.length > 1 || blocks.some((block) => sentencesOf(block.text).length > 1);
  const out: string[] = [];
  let specifying = false;
  for (const block of blocks) {
    const underTarget = block.item && (specifying || (block.lead !== undefined && announcesTarget(block.lead)));
    for (const sentence of sentencesOf(block.text)) {
      let previousKept = false;
      for (const clause of clausesOf(sentence)) {
        const kind = clauseKind(clause, { ...sentence, hasContext });
        // "run the unit tests plus the core tests": an item after "plus" is what the clause before it is.
        const added: boolean = /^plus\s/i.test(clause) ? previousKept : true;
        const keep: boolean =
          added && (kind === "requirement" || (!block.title && ((kind === "rule" && specifying) || (underTarget && isTargetItem(clause, sentence.question)))));
        previousKept = keep;
        if (!keep) continue;
        out.push(...ruleList(clause).map((part) => shown(part, unmask)));
        specifying = true;
      }
    }
  }
  return out.filter((clause) => clause !== "");
}

/** Every clause of `text` (requirements or not), in order, as shown. */
export function clauses(text: string): string[] {
  const { blocks, unmask } = requestBlocks(text);
  return blocks.flatMap((block: RequestBlock) => sentencesOf(block.text).flatMap((sentence) => clausesOf(sentence).map((clause) => shown(clause, unmask))));
}

/** Whether one clause, on its own, states something the user asks for. */
export function isRequirementClause(clause: string): boolean {
  return clauseKind(clause) === "requirement";
}

/** A line introducing a list that defines the target: "It should resolve in this order:". */
function announcesTarget(lead: string): boolean {
  const last = sentencesOf(lead).at(-1);
  return last !== undefined && clausesOf(last).some((clause) => clauseKind(clause, last) === "requirement");
}

/** An item of a list that defines the target: a mapping entry or rule, even without a verb. */
function isTargetItem(clause: string, question: boolean): boolean {
  return !question && (isRuleStatement(bareOf(clause)) || (/:\s|→|->|=>/.test(clause) && !/\b(?:currently|today|actual|got)\b/i.test(clause)));
}

/**
 * A rule that announces a list ("the rules must hold for any separator: a run becomes one
 * sep, and there is no sep at either end") is the rule and each of its items.
 */
function ruleList(clause: string): string[] {
  const colon = clause.indexOf(": ");
  if (colon < 0) return [clause];
  const head = clause.slice(0, colon);
  if (bareOf(`${head}: x`) === "x" || (!MODAL.test(head) && !opensImperative(head))) return [clause];
  // "the maintainer wants the CHANGELOG to say this: ...": what follows is text to write, not rules.
  if (DELIVERABLE_NOUN.test(head) || SAYING.test(head)) return [clause];
  const items = clause.slice(colon + 2).split(/,\s+and\s+|;\s+|,\s+(?=(?:there|a|an|the|each|every|no)\b)/);
  if (!items.every((item) => opensStatement(item) || opensImperative(item))) return [clause];
  // "What I want: a, and b": a head that only announces is not a rule of its own.
  const announces =
    /^(?:what|here's what|this is what|the (?:rule|rules|goal|target|idea|plan) (?:is|are))\b/i.test(bareOf(head)) || bareOf(head).split(/\s+/).length <= 2;
  const rules = announces ? items : [head, ...items];
  // One item is a rule of its own only after a rule head: "must hold for any separator: a run becomes one sep".
  if (items.length === 1) return MODAL.test(head) ? rules : [clause];
  return rules;
}

/** Heads whose colon introduces words to write: "say", "mention", "flag this". */
const SAYING =
  /\b(?:spell|spells|spelling|say|says|saying|mention|mentions|note|notes|flag|flags|explain|explains|describe|describes|state|states|read|reads|print|prints|warn|warns|tell|tells|document|documents|word|phrase)\b/i;

/** The clause as the record shows it: code restored, one line, no workspace path, task reference or end punctuation. */
function shown(clause: string, unmask: (text: string) => string): string {
  return unmask(withoutTaskReference(clause))
    .replace(/\s+/g, " ")
    .trim()
    .replace(WORKSPACE, "")
    .replace(/^[—–:,;-]+\s*/, "")
    .replace(/[.;,:]+$/, "")
    .trim();
}
