import { FILLER, POLITE, WORKSPACE } from "./requirement-cues.js";

/**
 * What stands in front of a clause's content and says nothing of what is asked: the
 * checkout path, task labels and back-references ("t2 —", "back to X —"), section and
 * speaker labels ("Review round:", "CI:"), fillers ("ok, also ..."), a polite opener, and a
 * leading condition. Classification looks past them; the record keeps most of them.
 */

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
/** The clause without workspace path, label, fillers, polite opener and leading condition: where the verb is. */
export function bareOf(clause: string): string {
  return withoutLabels(clause).replace(POLITE, "");
}

/** The clause without workspace path, labels and fillers; a polite opener stays. */
export function withoutLabels(clause: string): string {
  let rest = clause
    .replace(WORKSPACE, "")
    .replace(/[.;,!"]+$/, keepEntityEnd)
    .replace(/^[—–:,;"-]+\s*/, "");
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

/** The text without leading fillers ("ok, so also please ..."). */
export function stripFillers(text: string): string {
  let rest = text.trim();
  for (let previous = ""; previous !== rest; ) [previous, rest] = [rest, rest.replace(FILLER, "").trim()];
  return rest;
}

/** The clause without workspace path and task or section labels; a deliverable heading ("tests:") stays. */
export function withoutLabelsButDeliverable(clause: string): string {
  return clause.replace(WORKSPACE, "").replace(TASK_LABEL, "").replace(SECTION_LABEL, "");
}

/**
 * For `replace` on a sentence's end punctuation: drops it, but keeps the semicolon that ends an
 * HTML entity the user typed ("&#39;", "&quot;"): it is part of what they asked for.
 */
export function keepEntityEnd(match: string, offset: number, text: string): string {
  return match.startsWith(";") && /&#?\w+$/.test(text.slice(0, offset)) ? ";" : "";
}
