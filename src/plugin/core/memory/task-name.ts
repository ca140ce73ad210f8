import { withoutCueWords } from "./cue-words.js";
import { POLITE } from "./requirement-cues.js";

/** Characters of a title the task panel shows: a code name that starts later is brought to the front. */
const SHOWN_LEAD = 24;
/** "Task B: ", "task 2 — ": a label the user gave the task. */
const USER_LABEL = /^task [a-z0-9]{1,3}\s*(?:[:—–]|\s-)\s*/i;
/** Openers that steer the request, not the work ("now", "also"), besides the cue words and a polite opener. */
const OPENER = /^(?:now|also|and|then|so|please|just)\b[,\s]*/i;
/** A code name: `quoted`, a --flag, snake_case, camelCase, a call, or a file with its extension. */
const CODE_NAME =
  /`([^`\s]{2,40})`|(?<![\w./-])((?:[\w-]+\/)*[\w-]+\.(?:py|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|md|rst|json|jsonc|toml|ya?ml|ini|cfg|sh|sql|css|scss|html|txt)|--[a-z][\w-]*|[A-Za-z_][A-Za-z0-9]*_\w+|[a-z]+[A-Z]\w*|[A-Za-z_][\w.]*\(\))(?![\w/-])/;

/**
 * A task's title as people are shown it (the panel, toasts, /rcm, the move picker): without
 * the words that only steer ("separate thing:", "new task:", "back to X —", "ok so", "can
 * you"), led by its code name when that would otherwise come too late to be seen in the
 * panel. Pure and deterministic; the stored title (core/routing/task-title.ts) stays as the router knows it: its words are evidence, and its fitted weights were fitted on them.
 */
export function taskName(title: string): string {
  const ellipsis = title.endsWith("…");
  const body = ellipsis ? title.slice(0, -1).trimEnd() : title;
  // The user's own label ("Task B: ...") is how they call the task: it stays in front.
  const label = USER_LABEL.exec(body)?.[0] ?? "";
  const rest = withoutOpeners(withoutCueWords(body.slice(label.length)));
  const named = ledByCodeName(label === "" ? capitalised(rest) : rest);
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

/** "Make the retry logic back off in fetchWithRetry" → "fetchWithRetry: make the retry logic back off in fetchWithRetry". */
function ledByCodeName(sentence: string): string {
  const match = CODE_NAME.exec(sentence);
  if (!match || match.index < SHOWN_LEAD) return sentence;
  const name = match[1] ?? match[2] ?? "";
  const rest = /^[A-Z][a-z]/.test(sentence) ? `${sentence[0]?.toLowerCase()}${sentence.slice(1)}` : sentence;
  return `${name}: ${rest}`;
}
