import { clauseKind, REPRO_LEAD } from "./clause-kind.js";
import { bareOf, DELIVERABLE_LABEL, mainOf, stripFillers, withoutLabels, withoutLabelsButDeliverable } from "./clause-labels.js";
import { opensDeliverable, opensImperative, opensStatement, PHRASAL } from "./clause-shape.js";
import { HEDGE, MODAL, ONE_OFF, PROHIBITION, STANDING, VERBS } from "./requirement-cues.js";

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
  /** Opens with a hunch ("my guess: ..."). */
  hedged: boolean;
  /** Opens with "Repro:", "Steps:": reproduction, however many clauses follow. */
  repro: boolean;
  question: boolean;
  /** Which sentence of the block it is part of: pieces split at ";" share it. */
  whole: number;
}

/** The sentences of a masked block; ";" ends one too. */
export function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  let whole = -1;
  for (const segment of segmentsOf(text)) {
    // The segmenter misses a sentence that starts in lower case ("right. then print it").
    for (const part of segment.split(/(?<=[a-z0-9)'"\u0000][.!?])\s+(?=[a-z])(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|ca)\.\s+)/)) {
      const sentence = part.trim();
      if (sentence === "") continue;
      const bare = withoutLabels(sentence);
      const polite = /^(?:(?:can|could|would|will) you|would you mind|do you mind)\b/i.test(bare);
      const standing = STANDING.test(bare);
      const repro = REPRO_LEAD.test(bare);
      whole += 1;
      for (const piece of sentence.split(/;\s+/)) {
        // "Look at X; I suspect we never call Y": a hunch after ";" is a hunch of its own.
        const hedged = HEDGE.test(bare) || HEDGE.test(withoutLabels(piece));
        if (piece.trim() !== "") out.push({ text: piece.trim(), polite, standing, hedged, repro, question: /\?\s*$/.test(piece.trim()), whole });
      }
    }
  }
  return out;
}

/** At a joint: go on, cut there, drop the part before (it only announced), or drop the rest (a reason). */
/**
 * Sentences as the segmenter finds them, with two repairs: "e.g." and "i.e." never end one,
 * and a quoted sentence ("... taken.") ends one when the next starts with a capital.
 */
function segmentsOf(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of SENTENCES.segment(text)) {
    const previous = out.at(-1);
    if (previous !== undefined && /\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|ca)\.\s*$/i.test(previous)) out[out.length - 1] = previous + segment;
    else out.push(segment);
  }
  return out.flatMap((segment) => segment.split(/(?<=\u0000\d+\u0000\u0002)\s+(?=[A-Z])/));
}

type Decision = "keep" | "split" | "drop-before" | "drop-after";

// Joints where a sentence may hold two clauses; the longer spellings first.
const JOINT = /:\s+|\s+[—–]\s+|\s+-\s+(?=\S)|,\s+(?:and|plus|but|so|then)\s+|\s+(?:and|plus|then)\s+|,\s+/g;

/** What the clauses before a joint have settled for the rest of the sentence. */
interface SplitState {
  /** "In X, ..." or "the rules still apply: a, and b": everything after shares the lead, so no more cuts at "and". */
  held: boolean;
  /** After "the maintainer wants two things:", each item is a clause. */
  listing: boolean;
}

/** The clauses of one sentence, in order. */
export function clausesOf(sentence: Sentence): string[] {
  // A hunch, or a deliverable's heading ("test: a one-year span, the offset must be empty"), is one piece.
  const held = sentence.hedged || DELIVERABLE_LABEL.test(withoutLabelsButDeliverable(sentence.text));
  const state: SplitState = { held: held || (!sentence.standing && opensWithScope(sentence.text)), listing: false };
  const out: string[] = [];
  let rest = sentence.text;
  let searchFrom = 0;
  for (;;) {
    JOINT.lastIndex = searchFrom;
    const match = JOINT.exec(rest);
    if (!match) break;
    const before = rest.slice(0, match.index);
    const joint = match[0].trim().toLowerCase();
    const after = rest.slice(match.index + match[0].length);
    const decision = decide({ before, joint, after, sentence, state });
    if (decision === "keep") {
      searchFrom = match.index + match[0].length;
      continue;
    }
    if (decision === "split" || decision === "drop-after") out.push(before);
    // "Add X, plus Y": the item after "plus" keeps its word, so it reads as an addition.
    rest = decision === "drop-after" ? "" : /plus$/.test(joint) ? `plus ${after}` : after;
    searchFrom = /plus$/.test(joint) ? 5 : 0;
    // A new clause that opens with "with X, ..." holds its scope as the sentence's first one does.
    if (opensWithScope(rest)) state.held = true;
  }
  out.push(rest);
  return out.map((clause) => clause.trim()).filter((clause) => clause !== "");
}

/** "from now on", "for every one of these", "as I said": a lead with nothing of its own, kept with its instruction. */
function isStandingLead(text: string): boolean {
  // The colon that ends "Reminder for everything in this session:" is the joint itself.
  const lead = `${withoutLabels(text)}:`;
  const rest = lead.replace(STANDING, "");
  return rest !== lead && rest.replace(/[\s,:.;—–-]/g, "").length <= 12 && rest.trim().split(/\s+/).length <= 3;
}

/** "In _merge_url, always give ... and strip ...": everything after the comma shares that scope. */
function opensWithScope(text: string): boolean {
  return /^(?:if|when|whenever|unless|once|where|in|with|without|for|given|as long as)\b[^,:]{0,120},\s+/i.test(bareOf(text));
}

function decide(options: { before: string; joint: string; after: string; sentence: Sentence; state: SplitState }): Decision {
  const { before, joint, after, sentence, state } = options;
  if (before.trim().split(/\s+/).length < 2 && joint === "and") return "keep";
  // A leading condition is not finished before its comma: "If X and Y, return Z".
  if (/^(?:if|when|whenever|unless|once|as long as|after|before|while|where)\b/i.test(stripFillers(bareOf(before))) && !before.includes(",")) return "keep";
  // A label or a standing lead stays with what it introduces: "the first task: changelog line", "as I said, no new deps".
  if (withoutLabels(`${before}${joint === "," ? "," : ` ${joint}`} x`) === "x" || isStandingLead(before) || isStandingLead(after)) return "keep";
  if (joint === ":") return atColon(before, after, state);
  if (!STANDING.test(withoutLabels(before)) && STANDING.test(withoutLabels(after))) return "split";
  if (joint === "—" || joint === "–" || joint === "-") return atDash(before, after, sentence.standing);
  if (state.listing && /^,\s*and$/.test(joint)) return "split";
  if (state.held) return "keep";
  const opens = instructionAhead(after);
  if (joint === "+") return "keep";
  // "plus a test in X" is a second item; "an async view plus test_client" is one thing.
  if (/plus$/.test(joint)) return joint.startsWith(",") || /^(?:a|an|the|one|another|some)\b/i.test(after) || opensDeliverable(after) ? "split" : "keep";
  // "... thinks it's flaky, but asks for a playground case": the want after "but" stands alone.
  if (/but$/.test(joint))
    return opens || opensStatement(after) || /^(?:also |now )?(?:asks?|wants?|would like|prefers?|suggests|requests?)\b/i.test(after) ? "split" : "keep";
  // "the shell completes paths, so the prefix should only go on plain items": the rule stands without its reason;
  // "`padding` may be an int, so use `Padding.unpack`": an instruction keeps the fact it draws on.
  if (/so$/.test(joint))
    return isOneOffAhead(after) || (opens && clauseKind(before) === "requirement") || (modalStatementAhead(after) && !opensImperative(after))
      ? "split"
      : "keep";
  if (/then$/.test(joint)) return isOneOffAhead(after) ? "split" : "keep";
  if (/and$/.test(joint)) return atAnd(before, joint, after);
  // A bare comma: a prohibition or a new "X should" after a requirement, or a trailing reason.
  if (clauseKind(before) !== "requirement") {
    // "the test is flaky on macOS, put a timeout on the wait": the statement is context; a pronoun keeps it as referent.
    return strongImperative(after) && !isOneOffAhead(after) && !/\b(?:it|them|that|those|these|this|there)\b/i.test(after) && /\s/.test(before.trim())
      ? "split"
      : "keep";
  }
  if (PROHIBITION.test(after) || (opensStatement(after) && /^(?:it|that|this|they|people|users|i|we|you)\b/i.test(after))) return "split";
  // "take the throw out, keep the call, and assert ...": a list of instructions, each on its own.
  if (opensImperative(before) && strongImperative(after)) return "split";
  return modalStatementAhead(after) ? "split" : "keep";
}

function atAnd(before: string, joint: string, after: string): Decision {
  const comma = joint.startsWith(",");
  // "update the docs so the examples show X and say what happens", "add a test ... and check the value": one piece of work.
  if (!comma && /^(?:say|explain)\b/i.test(after) && clauseKind(before) === "requirement") return "keep";
  if (!comma && /^(?:check|assert|verify|compare|confirm)\b/i.test(stripFillers(after)) && /\btests?\b/i.test(before) && clauseKind(before) === "requirement")
    return "keep";
  // "add the input and snapshot it": a bare verb on the same object continues the work.
  if (!comma && /^\S+\s+(?:it|them)$/i.test(stripFillers(after).replace(/[.!]$/, "")) && !isOneOffAhead(before)) return "keep";
  if (opensImperative(after) || isOneOffAhead(after)) {
    if (comma) return "split";
    // "snapshot X and restore both", "try A first and fall back to B", "it should drop X and force Y": one requirement.
    if (/^\S+\s+(?:after|afterwards|again)\b/i.test(stripFillers(after)) || /\bfirst\b/i.test(before)) return "keep";
    return modalStatementAhead(mainOf(before)) && !opensImperative(before) ? "keep" : "split";
  }
  // "in README.md and docs/index.md": two names, one object.
  if (/\.\w{1,5}$|\//.test(before.trim()) && /^\S*[/.]\S*(?:\s|$)/.test(after)) return "keep";
  if (/^to\s+\w+/i.test(after) && /\b(?:asks?|wants?|wanted|needs?|would like|'d like)\b[^,]*\bto\b/i.test(before)) return "split";
  // "add a comment, and tests in X": a second deliverable; "clarify it in the docstring and the tables docs": one place more.
  if (
    modalStatementAhead(after) ||
    (opensDeliverable(after) &&
      clauseKind(before) === "requirement" &&
      (comma || /^(?:a |an |the )?(?:\S+ )?(?:tests?|changelog|fixtures?|snapshots?)\b/i.test(after)))
  )
    return "split";
  return comma && opensStatement(after) ? "split" : "keep";
}

function atColon(before: string, after: string, state: SplitState): Decision {
  const announced = /\b(?:(?:two|three|four|a few|several|some) things|the following|as follows|like (?:this|so))\s*$/i.test(before);
  if (isOneOffAhead(after)) return announced || MODAL.test(before) ? "drop-before" : "split";
  if (announced) {
    state.listing = true;
    return "drop-before";
  }
  const kind = clauseKind(before);
  // "fails with TTLibError: specify a font number": what follows is the program's output.
  if (
    /\b(?:\w*(?:Error|Exception|Warning)|fails? with|failed with|raises?|raised|errors? (?:out )?with|complains?|complained|says|said|prints?|printed|outputs?|shows?|message|reads?)\s*$/.test(
      before,
    )
  )
    return "keep";
  // "implement it: keep at most one blank line": the go-ahead only announces its content.
  if (/^\S+\s+(?:it|this|that)$/i.test(mainOf(before)) && instructionAhead(after)) return "drop-before";
  // "push the proxy: false test": what follows a one-off belongs to it.
  if (isOneOffAhead(before) && !opensImperative(after)) return "keep";
  // "the rules still apply to indented lines: break only at whitespace, and ...": the colon elaborates the statement.
  if (kind === "rule" || (kind === "requirement" && !opensImperative(after) && !(opensImperative(before) && modalStatementAhead(after)))) {
    state.held = true;
    return "keep";
  }
  return instructionAhead(after) ? "split" : "keep";
}

function atDash(before: string, after: string, standing: boolean): Decision {
  // Under "as I said ..." a dash elaborates ("keep it local — commit but don't push"), unless a new instruction follows.
  if (standing) return opensImperative(after) && !isOneOffAhead(after) ? "split" : "keep";
  const kind = clauseKind(before);
  // "X shouldn't invent a timezone — it makes Y reject dates": the reason is not part of the rule.
  if (/^(?:it|that|this|which|because|since|as)\b\s*\S+/i.test(after) && !instructionAhead(after)) return kind === "requirement" ? "drop-after" : "keep";
  // "coverage back to 100% — the error path isn't hit": why, not what.
  if (kind === "requirement" && opensStatement(after) && !MODAL.test(after) && /\b(?:isn't|aren't|doesn't|don't|never|not|no longer|because)\b/i.test(after))
    return "drop-after";
  // "assert the message — use pytest.raises with match": how to do what the first half asks.
  if (instructionAhead(after)) return opensImperative(before) && kind === "requirement" && opensImperative(after) ? "keep" : "split";
  return opensStatement(after) && kind === "requirement" ? "split" : "keep";
}
/** A new instruction starts here: an imperative, a new "X should ...", or a deliverable. */
function instructionAhead(text: string): boolean {
  return (opensImperative(text) && !isOneOffAhead(text)) || modalStatementAhead(text) || opensDeliverable(text) || STANDING.test(withoutLabels(text));
}

/** A known verb before its object ("put a timeout on ..."): clear enough to start a clause after a bare comma. */
function strongImperative(text: string): boolean {
  const [verb = "", object = ""] = stripFillers(text).split(/\s+/);
  if (PHRASAL.test(stripFillers(text))) return true;
  return (
    opensImperative(text) && VERBS.has(verb.toLowerCase()) && /^(?:the|a|an|its|their|every|each|all|both|any|\u0000\d+\u0000\S*|\S+\(\)\S*)$/i.test(object)
  );
}

function modalStatementAhead(text: string): boolean {
  // "with a bbox given, 'best' should pick ...": past a leading condition too.
  return [text, mainOf(text)].some((part) => opensStatement(part) && MODAL.test(part.split(/\s+/).slice(0, 9).join(" ")));
}

function isOneOffAhead(text: string): boolean {
  return ONE_OFF.test(mainOf(text));
}
