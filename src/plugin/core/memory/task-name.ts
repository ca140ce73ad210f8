import { withoutCueWords } from "./cue-words.js";
import { POLITE } from "./requirement-cues.js";

/** "Task B: ", "task 2 — ": a label the user gave the task. */
const USER_LABEL = /^task [a-z0-9]{1,3}\s*(?:[:—–]|\s-)\s*/i;
/** Openers that steer the request, not the work ("now", "also"), besides the cue words and a polite opener. */
const OPENER = /^(?:now|also|and|then|so|please|just)\b[,\s]*/i;

/**
 * A task's title as people are shown it (the panel, toasts, /rcm, the move picker): without
 * the words that only steer ("separate thing:", "new task:", "back to X —", "ok so", "can
 * you"), in the user's own words: nothing is put in front that the user did not type there
 * (issue 48). Pure and deterministic; the stored title (core/routing/task-title.ts) stays as the router knows it: its words are evidence, and its fitted weights were fitted on them.
 */
export function taskName(title: string): string {
  const ellipsis = title.endsWith("…");
  const body = ellipsis ? title.slice(0, -1).trimEnd() : title;
  // The user's own label ("Task B: ...") is how they call the task: it stays in front.
  const label = USER_LABEL.exec(body)?.[0] ?? "";
  const rest = withoutOpeners(withoutCueWords(body.slice(label.length)));
  const named = label === "" ? capitalised(rest) : rest;
  return named === "" ? title : `${label}${named}${ellipsis ? "…" : ""}`;
}

function withoutOpeners(sentence: string): string {
  let rest = sentence;
  for (let previous = ""; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(OPENER, "").replace(POLITE, "").trim();
  }
  return rest === "" ? sentence : rest;
}

/** "the install guide…" → "The install guide…"; a code name ("export_csv", "parseDate") keeps its case. */
function capitalised(sentence: string): string {
  return /^[a-z][a-z'-]*(?:\s|$)/.test(sentence) ? `${sentence[0]?.toUpperCase()}${sentence.slice(1)}` : sentence;
}
