import { plural } from "./words.js";

/** The panel's one line for the options' problems (the details are in the toast, the log and `/rcm status`). */
export function problemsLine(count: number, statusCommand = "/rcm status"): string | undefined {
  return count === 0 ? undefined : `${plural(count, "config problem")}: ${statusCommand}`;
}

/** Problems a toast lists before it points to the rest. */
const TOAST_PROBLEMS = 5;

/**
 * The toast's text for the options' problems: each problem on lines of at most `width`
 * characters, broken only at spaces, so the toast never has to wrap inside a number, a key
 * or a word; beyond the first few, where the rest are.
 */
export function problemsToastMessage(options: { problems: readonly string[]; width: number; rest?: string }): string {
  const { problems, width, rest = "/rcm status and the log" } = options;
  // A problem's later lines are set in, so each problem reads as one.
  const shown = problems.slice(0, TOAST_PROBLEMS).flatMap((problem) => wrapWords(problem, width - 2).map((line, index) => (index === 0 ? line : `  ${line}`)));
  const more = problems.length > TOAST_PROBLEMS ? wrapWords(`(+${problems.length - TOAST_PROBLEMS} more: ${rest})`, width) : [];
  return [...shown, ...more].join("\n");
}

/** `text` as lines of at most `width` characters, broken at spaces; a word longer than a line stays whole on its own line. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Characters of a toast's line: OpenCode 1.18's toast is at most 60 columns wide, borders and padding included. */
export const TOAST_TEXT_WIDTH = 52;

/** "opencode-rcm: config problem", "opencode-rcm: 5 config problems". */
export function problemsToastTitle(count: number): string {
  return count === 1 ? "opencode-rcm: config problem" : `opencode-rcm: ${count} config problems`;
}
