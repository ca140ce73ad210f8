import { keepEntityEnd, withoutTaskReference } from "./clause-labels.js";

/**
 * Words in front of a request that steer the conversation, not the work: "separate thing:",
 * "one more on parse_line:", "back to the parser —", "ok so". The record is already the
 * task's, so they say nothing there; a code name they scope the sentence to stays
 * ("one more on parse_line: strip quotes" → "parse_line: strip quotes").
 */
const STEERING =
  /^(?:ok(?:ay)?|so|oh|ah|uh|um|erm|hmm|btw|by the way|fyi|alright|cool|great|thanks|thank you|ty|one more(?: thing)?|another(?: thing)?|last(?: thing)?|(?:a )?(?:separate|different|unrelated|new|other|side)(?: \w+)? (?:thing|task|topic|issue|note|request|one)|unrelated|side note|switching (?:gears|tasks?)|while you're at it|while you are at it)\b\s*(?:[,:—–]|\s-)?\s*/i;

/** "on parse_line:", "for `export_csv` —": a scope naming code, kept as "parse_line:". */
const SCOPE = /^(?:on|for|re|about|in)\s+(`[^`]+`|[\w.]*[_.(][\w.()]*|[\w-]+\.\w{1,5})\s*(?:[:—–]|\s-)\s*/i;

/** The sentence without the words that only steer; unchanged when nothing would be left. */
export function withoutCueWords(sentence: string): string {
  let rest = sentence.trim();
  for (let previous = ""; previous !== rest; ) {
    previous = rest;
    rest = withoutTaskReference(rest.replace(STEERING, "")).trim();
    const scope = SCOPE.exec(rest);
    if (scope) rest = `${scope[1]}: ${rest.slice(scope[0].length)}`;
  }
  rest = rest
    .replace(/^[,:;—–-]+\s*/, "")
    .replace(/[.;,]+$/, keepEntityEnd)
    .trim();
  return rest === "" ? sentence.trim() : rest;
}
