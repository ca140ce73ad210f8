import { bareOf, clauseKind, mainOf, withoutLabels, opensDeliverable, opensImperative, opensStatement, stripFillers } from "./clause-kind.js";
import { MODAL, ONE_OFF, PROHIBITION, STANDING } from "./requirement-cues.js";

/**
 * Sentences and clauses of one masked block. Two requirements that each stand on their own
 * are two clauses: they are split at ";", ", and", "plus" and "and <verb>", and where a dash
 * or a colon starts a new instruction. What qualifies a requirement stays with it: a leading
 * condition ("When X, return A and log B" is one clause), a reason a "so" draws from, the
 * sentence a pronoun points back to ("users type `ya`, please accept it").
 */

const SENTENCES = new Intl.Segmenter("en", { granularity: "sentence" });

export interface Sentence {
  text: string;
  /** "Can you ... ?": a request, though it ends with a question mark. */
  polite: boolean;
  /** Opens with "From now on", "For all of these:", "as I said": every clause of it is a standing instruction. */
  standing: boolean;
  question: boolean;
}

/** The sentences of a masked block; ";" ends one too. */
export function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const { segment } of SENTENCES.segment(text)) {
    // The segmenter misses a sentence that starts in lower case ("right. then print it").
    for (const part of segment.split(/(?<=[a-z0-9)'"\u0000][.!?])\s+(?=[a-z])(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|ca)\.\s+)/)) {
      const whole = part.trim();
      if (whole === "") continue;
      const bare = withoutLabels(whole);
      const polite = /^(?:(?:can|could|would|will) you|would you mind|do you mind)\b/i.test(bare);
      const standing = STANDING.test(bare);
      for (const piece of whole.split(/;\s+/)) {
        if (piece.trim() !== "") out.push({ text: piece.trim(), polite, standing, question: /\?\s*$/.test(piece.trim()) });
      }
    }
  }
  return out;
}

/** At a joint: go on, cut there, drop the part before (it only announced), or drop the rest (a reason). */
type Decision = "keep" | "split" | "drop-before" | "drop-after";

// Joints where a sentence may hold two clauses; the longer spellings first.
const JOINT = /:\s+|\s+[—–]\s+|\s+-\s+(?=\S)|,\s+(?:and|plus|but|so|then)\s+|\s+(?:and|plus|then)\s+|,\s+/g;

/** The clauses of one sentence, in order. */
export function clausesOf(sentence: Sentence): string[] {
  const scoped = !sentence.standing && /^(?:if|when|whenever|unless|once|where|in|with|without|for|given|as long as)\b[^,:]{0,120},\s+/i.test(bareOf(sentence.text));
  const out: string[] = [];
  let rest = sentence.text;
  let searchFrom = 0;
  for (;;) {
    JOINT.lastIndex = searchFrom;
    const match = JOINT.exec(rest);
    if (!match) break;
    const before = rest.slice(0, match.index);
    const after = rest.slice(match.index + match[0].length);
    const decision = decide({ before, joint: match[0].trim().toLowerCase(), after, scoped, sentence });
    if (decision === "keep") {
      searchFrom = match.index + match[0].length;
      continue;
    }
    if (decision === "split" || decision === "drop-after") out.push(before);
    rest = decision === "drop-after" ? "" : after;
    searchFrom = 0;
  }
  out.push(rest);
  return out.map((clause) => clause.trim()).filter((clause) => clause !== "");
}

function decide(options: { before: string; joint: string; after: string; scoped: boolean; sentence: Sentence }): Decision {
  const { before, joint, after, scoped, sentence } = options;
  if (before.trim().split(/\s+/).length < 2 && joint === "and") return "keep";
  // A leading condition is not finished before its comma: "If X and Y, return Z".
  if (/^(?:if|when|whenever|unless|once|as long as|after|before|while|where)\b/i.test(stripFillers(bareOf(before))) && !before.includes(",")) return "keep";
  if (joint === ":") return atColon(before, after);
  if (joint === "—" || joint === "–" || joint === "-") return atDash(before, after, sentence.standing);
  // Everything after "In X, ..." shares that scope.
  if (scoped) return "keep";
  const opens = instructionAhead(after);
  if (joint === "+") return "keep";
  if (/plus$/.test(joint)) return "split";
  if (/but$/.test(joint)) return opens || opensStatement(after) ? "split" : "keep";
  if (/(?:so|then)$/.test(joint)) return isOneOffAhead(after) || (opens && clauseKind(before) === "requirement" && !/then$/.test(joint)) ? "split" : "keep";
  if (/and$/.test(joint)) return atAnd(before, joint, after);
  // A bare comma: a prohibition or a new "X should" after a requirement, or a trailing reason.
  if (clauseKind(before) !== "requirement") return "keep";
  if (PROHIBITION.test(after) || (opensStatement(after) && /^(?:it|that|this|they|people|users|i|we|you)\b/i.test(after))) return "split";
  return modalStatementAhead(after) ? "split" : "keep";
}

function atAnd(before: string, joint: string, after: string): Decision {
  const comma = joint.startsWith(",");
  if (opensImperative(after) || isOneOffAhead(after)) {
    // "snapshot X and restore it", "try A first and fall back to B": one requirement.
    if (!comma && (/^\S+\s+(?:it|them|that|this|those|these|after|afterwards|again)\b/i.test(stripFillers(after)) || /\bfirst\b/i.test(before))) return "keep";
    return "split";
  }
  if (/^to\s+\w+/i.test(after) && /\b(?:asks?|wants?|wanted|needs?|would like|'d like)\b[^,]*\bto\b/i.test(before)) return "split";
  if (modalStatementAhead(after) || opensDeliverable(after)) return "split";
  return comma && opensStatement(after) ? "split" : "keep";
}

function atColon(before: string, after: string): Decision {
  // A label stays with what it labels: "the first task: changelog line".
  if (withoutLabels(`${before}: x`) === "x") return "keep";
  const announced = /\b(?:(?:two|three|four|a few|several|some) things|the following|as follows|like (?:this|so))\s*$/i.test(before);
  if (isOneOffAhead(after)) return announced || MODAL.test(before) ? "drop-before" : "split";
  if (announced) return "drop-before";
  if (!instructionAhead(after)) return "keep";
  return clauseKind(before) === "requirement" && !opensImperative(after) ? "keep" : "split";
}

function atDash(before: string, after: string, standing: boolean): Decision {
  if (standing) return "keep";
  // "X shouldn't invent a timezone — it makes Y reject dates": the reason is not part of the rule.
  if (/^(?:it|that|this|which|because|since|as)\b\s*\S+/i.test(after) && !instructionAhead(after)) return clauseKind(before) === "requirement" ? "drop-after" : "keep";
  if (instructionAhead(after)) return "split";
  return opensStatement(after) && clauseKind(before) === "requirement" ? "split" : "keep";
}

/** A new instruction starts here: an imperative, a new "X should ...", or a deliverable. */
function instructionAhead(text: string): boolean {
  return (opensImperative(text) && !isOneOffAhead(text)) || modalStatementAhead(text) || opensDeliverable(text);
}

function modalStatementAhead(text: string): boolean {
  const head = text.split(/\s+/).slice(0, 9).join(" ");
  return opensStatement(text) && MODAL.test(head);
}

function isOneOffAhead(text: string): boolean {
  return ONE_OFF.test(mainOf(text));
}
