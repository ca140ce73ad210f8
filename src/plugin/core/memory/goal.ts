import { isPleasantry } from "./clause-kind.js";
import { sentencesOf } from "./clause-split.js";
import { withoutCueWords } from "./cue-words.js";
import { requestBlocks } from "./request-blocks.js";

/** A goal is a line a person reads at a glance: longer statements are cut at a clause boundary. */
const GOAL_CHARS = 100;

/**
 * A short statement of the task: its first requirement in the user's words, cut to its main
 * clause ("parse_date should reject impossible dates"), or, when the task has none yet, the
 * opening sentence of its first request. Never the whole first request.
 */
export function goalOf(requirements: readonly string[], requests: readonly string[]): string {
  const request = requests.find((text) => text.trim() !== "") ?? "";
  const first = requirements[0] ?? openingSentence(request);
  return shortStatement(named(first, request));
}

/** A code name: a code span, a call, or an identifier with an underscore or an inner capital. */
const CODE_NAME = /`[^`\n]+`|\b[A-Za-z_][\w.]*\(\)|\b[a-z]+_[\w]+\b|\b[a-z]+[A-Z]\w*\b/;

/** "It should reject ..." read alone says nothing: the pronoun becomes the code the request names first ("parse_date should reject ..."). */
function named(statement: string, request: string): string {
  const pronoun = /^(?:it|this|that)\b(?=\s+(?:should|must|needs?|has to|shall|may|is|has|will))/i.exec(statement);
  const name = CODE_NAME.exec(request)?.[0];
  return pronoun && name ? `${name}${statement.slice(pronoun[0].length)}` : statement;
}

function openingSentence(request: string): string {
  const { blocks, unmask } = requestBlocks(request);
  for (const block of blocks) {
    if (block.title) continue;
    for (const sentence of sentencesOf(block.text)) if (!isPleasantry(sentence.text)) return withoutCueWords(unmask(sentence.text));
  }
  return request;
}

function shortStatement(text: string): string {
  const flat = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.;:,]+$/, "");
  if (flat.length <= GOAL_CHARS) return flat;
  const boundary = /,\s|;\s|\s[—–]\s|\s-\s|\s(?:so that|because|which|since|but|and then|e\.g\.)\s|:\s/g;
  for (const match of flat.matchAll(boundary)) {
    if (match.index >= 25 && match.index <= GOAL_CHARS) return flat.slice(0, match.index);
  }
  const cut = flat.slice(0, GOAL_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > GOAL_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
}
