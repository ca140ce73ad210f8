import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";

/**
 * JSON lines, read one way everywhere: a line ends at `\n` (a `\r` before it is dropped), blank
 * lines are skipped, and lines are numbered from 1 so that every reader names a bad one as
 * `file:line: problem` (`atLine`). What a bad line is, and which error it throws, stays the
 * reader's own.
 */

/** One non-blank line: its 1-based number, its text, and whether it is the text's last (possibly torn: the writer was killed mid-append). */
export interface JsonlLine {
  line: number;
  text: string;
  last: boolean;
}

/** A line parsed as JSON: its value, or why it is not JSON (`JSON.parse`'s message). */
export type JsonValue = { ok: true; value: unknown } | { ok: false; reason: string };

export type JsonlEntry = JsonlLine & JsonValue;

/** The non-blank lines of a JSONL text. */
export function jsonlLines(text: string): JsonlLine[] {
  const lines = text.split(/\r?\n/);
  return lines.flatMap((raw, index) => (raw.trim() === "" ? [] : [{ line: index + 1, text: raw, last: index === lines.length - 1 }]));
}

export function parseJsonLine(text: string): JsonValue {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

/** Every non-blank line of a JSONL text, parsed. */
export function parseJsonl(text: string): JsonlEntry[] {
  return jsonlLines(text).map((line) => ({ ...line, ...parseJsonLine(line.text) }));
}

/** Every non-blank line of a JSONL file, parsed; the file's read error as it comes. */
export async function readJsonl(file: string): Promise<JsonlEntry[]> {
  return parseJsonl(await readFile(file, "utf8"));
}

/** How a bad line is named: `file:line: problem`. */
export function atLine(file: string, line: number, problem: string): string {
  return `${file}:${line}: ${problem}`;
}

/** A schema's first complaint about a line: `field.path: message`, `whole` for the line itself. */
export function firstIssue(error: z.ZodError, whole = "(line)"): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || whole}: ${issue?.message ?? "invalid"}`;
}
