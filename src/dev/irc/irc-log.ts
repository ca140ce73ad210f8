import { RcmError } from "../../kit/errors/rcm-error.js";

/**
 * The log lines of the IRC disentanglement corpus (Kummerfeld et al., ACL 2019; new channels
 * from Gouravajhala et al., ALTA 2023), as its `.ascii.txt` files write them, one message a
 * line, numbered from 0 as the annotation numbers them:
 *
 *   [hh:mm] <nick> text              a message (Ubuntu)
 *   [hh:mm] (nick/#channel) text     a message relayed from another client
 *   [hh:mm]  * nick text             an action (/me; `*nick` on one channel)
 *   [hh:mm] -nick:#channel- text     a notice (`-nick-` alone on the new channels)
 *   === nick has joined #channel     a system line (joins, quits, renames, modes)
 *
 * The new channels put `channel yyyy-mm-dd ` first and may give seconds (`[hh:mm:ss]`), and
 * some put a tab after `<nick>`.
 */
type IrcLineKind = "message" | "action" | "notice" | "system";

export interface IrcLine {
  /** 0-based, as the annotation counts lines. */
  index: number;
  kind: IrcLineKind;
  /** Who wrote it; for a system line, whom it is about (the first word after `===`). */
  nick: string;
  /** What follows the nick, without the surrounding whitespace; for a system line, the whole notice after `===`. */
  text: string;
  /** The name a rename gives (`=== old is now known as new`), a name seen in the file too. */
  renamedTo?: string;
}

const PREFIX = String.raw`^(?:[\w.#-]+ \d{4}-\d\d-\d\d )?(?:\[\d\d:\d\d(?::\d\d)?\]\s*)?`;
const SHAPES: readonly [IrcLineKind, RegExp][] = [
  ["message", new RegExp(`${PREFIX}<([^>\\s]*)>(?:\\s(.*))?$`)],
  // A message relayed from another client: `(nick/#channel) text`.
  ["message", new RegExp(`${PREFIX}\\(([^)\\s/]+)/#[^)\\s]*\\)(?:\\s(.*))?$`)],
  ["action", new RegExp(`${PREFIX}\\* ?(\\S+)(?:\\s(.*))?$`)],
  ["notice", new RegExp(`${PREFIX}-([^\\s:-][^\\s:]*?)(?::#\\S*)?-(?:\\s(.*))?$`)],
  ["system", new RegExp(`${PREFIX}=== (\\S+)(?:\\s(.*))?$`)],
];
const RENAME = /^is now known as (\S+)/;

/** The lines of one `.ascii.txt` log; a line of no known shape is an error naming the file and the line. */
export function parseIrcLog(file: string, text: string): IrcLine[] {
  const raw = text.endsWith("\n") ? text.slice(0, -1) : text;
  return raw.split("\n").map((line, index) => {
    for (const [kind, shape] of SHAPES) {
      const match = shape.exec(line);
      if (!match) continue;
      const nick = match[1] ?? "";
      const rest = (match[2] ?? "").trim();
      if (kind === "system") {
        const renamedTo = RENAME.exec(rest)?.[1];
        return { index, kind, nick, text: `${nick} ${rest}`.trim(), ...(renamedTo === undefined ? {} : { renamedTo }) };
      }
      return { index, kind, nick, text: rest };
    }
    throw new RcmError("corpus", `${file}:${index + 1}: (line): not a message, an action, a notice or a system line`, {
      location: { file, line: index + 1, field: "(line)", problem: "not a message, an action, a notice or a system line" },
    });
  });
}

/** A system line about a person: a join, a leave, a quit or a rename (not a mode change or a topic). */
const PRESENCE = /^\S+ (?:\[[^\]]*\]\s+)?(?:has (?:joined|left|quit)|is now known as)\b/;

/**
 * Every name seen in a log (writers, people joining, leaving or renamed, and their new names),
 * lower-cased: IRC names are case-blind.
 */
export function nicksOf(lines: readonly IrcLine[]): Set<string> {
  const nicks = new Set<string>();
  for (const line of lines) {
    if (line.nick !== "" && (line.kind !== "system" || PRESENCE.test(line.text))) nicks.add(line.nick.toLowerCase());
    if (line.renamedTo !== undefined) nicks.add(line.renamedTo.toLowerCase());
  }
  return nicks;
}

/** `nick: `, `nick, ` or `@nick` at the start of a message, with what follows it. */
const ADDRESS = /^@?([^\s:,]+?)(?:\s*[:,]\s*|(?<=^@[^\s:,]+)\s+)([\s\S]*)$/;

/**
 * A message with its leading addressees taken off (`nick: `, `nick, `, `@nick `, several in a
 * row), where each is a name seen in the file: whom a message answers gives its conversation
 * away, and the router sees no speakers. A message that is nothing but an address keeps it
 * (`onlyAddress`): an empty request is no request.
 */
export function stripAddressees(text: string, nicks: ReadonlySet<string>): { text: string; stripped: number; onlyAddress: boolean } {
  let rest = text;
  let stripped = 0;
  for (;;) {
    const match = ADDRESS.exec(rest);
    if (!match || !nicks.has((match[1] as string).toLowerCase())) break;
    rest = (match[2] as string).trim();
    stripped += 1;
  }
  if (stripped > 0 && rest === "") return { text, stripped: 0, onlyAddress: true };
  return { text: rest, stripped, onlyAddress: false };
}
