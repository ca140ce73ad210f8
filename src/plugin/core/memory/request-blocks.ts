/**
 * The prose of a request, in paragraphs and list items. Code is never a requirement: fenced
 * and indented blocks are dropped, quoted reports ("> ...") too, since they are someone
 * else's words. Code spans and short quoted strings are masked (`\u0000n\u0000`) so that
 * `a.py` or "x; y" never splits a sentence; `unmask` restores them.
 */

export interface RequestBlock {
  /** Masked text, wrapped lines joined. */
  text: string;
  /** A bullet or numbered item. */
  item: boolean;
  /** A first line without end punctuation, alone before a blank line: a pasted issue's title. */
  title: boolean;
  /** For an item, the masked line that introduced its list when that line ends with ":". */
  lead?: string | undefined;
}

export interface MaskedRequest {
  blocks: RequestBlock[];
  unmask: (text: string) => string;
}

const BULLET = /^(?:[-*•+]|\d{1,2}[.)])\s+/;

/** Splits a request into masked blocks. */
export function requestBlocks(text: string): MaskedRequest {
  const code: string[] = [];
  // A quoted span that ends a sentence ("... taken.") is marked, so the sentence can end after it.
  const hold = (span: string) => `\u0000${code.push(span) - 1}\u0000${/[.!?]["'`]$/.test(span) ? "\u0002" : ""}`;
  const masked = withoutCodeBlocks(text)
    .replace(/`[^`\n]+`/g, hold)
    .replace(/"[^"\n]{1,80}"/g, hold)
    // A single-quoted string opens after a non-word character, so "don't" is never one.
    .replace(/(?<![\w'])'[^'\n]{1,80}'(?![\w'])/g, hold);
  // Masks nest (a quoted string holding a code span): restore until none is left.
  const unmask = (part: string): string => {
    const restored = part.replace(/\u0000(\d+)\u0000\u0002?/g, (_, index: string) => code[Number(index)] ?? "");
    return restored === part ? restored : unmask(restored);
  };
  return { blocks: blocksOf(masked), unmask };
}

/**
 * A stack frame of a pasted log: "at check (src/limiter.js:3:9)", "at src/a.js:3:9",
 * 'File "app.py", line 12, in main'. Never prose, wherever it stands.
 */
const STACK_FRAME = /^\s*(?:at\s+(?:\S+\s+\(\S+:\d+(?::\d+)?\)|\S+:\d+(?::\d+)?)|File "[^"]+", line \d+.*)\s*$/;

/**
 * Fenced blocks, indented blocks after a blank line or after a line that leads into them with a
 * colon ("it crashed:"), stack frames, and quoted lines become blank lines.
 */
function withoutCodeBlocks(text: string): string {
  const lines = text.replace(/(?:```|~~~)[\s\S]*?(?:```|~~~|$)/g, "\n\n").split("\n");
  let previousBlank = true;
  let previousLeads = false;
  let inCode = false;
  let inList = false;
  return lines
    .map((line) => {
      const blank = line.trim() === "";
      const indented = /^(?: {4}|\t)/.test(line);
      inCode = !blank && indented && !inList && !BULLET.test(line.trim()) && (previousBlank || previousLeads || inCode);
      if (!blank && !indented) inList = BULLET.test(line.trim());
      previousBlank = blank;
      previousLeads = !indented && /:\s*$/.test(line);
      return inCode || STACK_FRAME.test(line) || /^\s*>/.test(line) ? "" : line;
    })
    .join("\n");
}

/** A line that is only a Markdown heading: "### Steps", "**Environment**". */
export function isHeading(line: string): boolean {
  return /^#{1,6}\s+\S/.test(line) || /^(?:\*\*|__)[^*_]+(?:\*\*|__):?$/.test(line.trim());
}

function blocksOf(masked: string): RequestBlock[] {
  const out: RequestBlock[] = [];
  let current: string[] = [];
  let item = false;
  const flush = (title = false) => {
    if (current.length === 0) return;
    const text = current.join(" ");
    const previous = out.at(-1);
    // Items of one list share the line that introduced it; anything else starts afresh.
    // A Markdown heading ("**To reproduce**", "### Steps") introduces a list as a colon does.
    const lead = !item
      ? undefined
      : previous?.item
        ? previous.lead
        : previous && (/:$/.test(previous.text) || isHeading(previous.text))
          ? previous.text
          : undefined;
    out.push({ text, item, title, lead });
    current = [];
  };
  const lines = masked.split("\n");
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const bullet = BULLET.exec(line);
    // An unindented line that starts a sentence after a list item ends the list.
    const afterList = item && !bullet && line !== "" && /^[A-Z]/.test(line) && !/^\s/.test(raw);
    if (line === "" || bullet || afterList) {
      flush();
      item = bullet !== null;
    }
    if (line !== "") current.push(bullet ? line.slice(bullet[0].length) : line);
    if (index === 0 && line !== "" && !/[.!?:;,]$/.test(line) && lines.length > 2 && (lines[1] ?? "").trim() === "") flush(true);
  });
  flush();
  return out;
}
