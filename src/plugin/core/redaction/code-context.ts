import { isWordsIdentifier } from "./references.js";

/**
 * Whether the unquoted value of `name: value` (or `name = value`) is a variable in code:
 * `{ DB_PASSWORD: dbPassword }`, `Client({\n  token: authToken\n})`.
 * In an object, a dict or a call's arguments a literal needs quotes, so a bare name there is
 * an expression; in a YAML line, an .env file or a log the same text is data (`password:
 * harborraven`), and stays a candidate secret.
 */
export function isVariableInCode(options: { text: string; nameStart: number; valueStart: number; valueEnd: number }): boolean {
  const { text, nameStart, valueStart, valueEnd } = options;
  return isVariableName(text.slice(valueStart, valueEnd)) && inCodeLiteral(text, nameStart, valueEnd);
}

/**
 * A name a person gives a variable: words (`authHeader`, `auth_header`, `API_TOKEN`), most of
 * them 3+ letters. Random mixed case (`QwErTyUiOp`) splits into many short words, and one word
 * longer than the longest common ones (`authentication`) is a run-together password
 * (`mesaharborraven`), not a name.
 */
export function isVariableName(value: string): boolean {
  if (!isWordsIdentifier(value)) return false;
  const words = value.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  if (words.length === 1 && value.length > 14) return false;
  return words.filter((word) => word.length < 3).length * 2 <= words.length;
}

// A member's punctuation: after `{`, `(` or `,` on its line, or followed by `,` `;` a closing
// bracket or an operator (`authHeader!`, `token ?? ""`, `key as string`).
const OPENS_MEMBER = /[{(,]\s*$/;
const ENDS_EXPRESSION = /^\s*(?:[,;})\]!+]|\?\?|\|\||&&|as\s)/;

function inCodeLiteral(text: string, nameStart: number, valueEnd: number): boolean {
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const newline = text.indexOf("\n", valueEnd);
  const lineEnd = newline < 0 ? text.length : newline;
  const before = text.slice(lineStart, nameStart).replace(/["']$/, "");
  const after = text.slice(valueEnd, lineEnd);
  if (OPENS_MEMBER.test(before) || ENDS_EXPRESSION.test(after)) return true;
  // Alone on its line; a trailing comment says nothing either way.
  if (before.trim() !== "" || !/^\s*(?:(?:\/\/|#).*)?$/.test(after)) return false;
  // The last member on its own line: the object opens on the line before or closes on the next.
  return /[{([,]\s*$/.test(neighbour(text, lineStart, -1)) || /^\s*[})\]]/.test(neighbour(text, lineEnd, 1));
}

/** The nearest non-blank line before (`step` -1, from a line's start) or after (1, from its end). */
function neighbour(text: string, from: number, step: -1 | 1): string {
  let at = from;
  while (step < 0 ? at > 0 : at < text.length) {
    const start = step < 0 ? text.lastIndexOf("\n", at - 2) + 1 : at + 1;
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    if (line.trim() !== "") return line;
    at = step < 0 ? start : end;
  }
  return "";
}
