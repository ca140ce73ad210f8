import type { Ledger, LedgerEntry } from "../core/routing/ledger.js";
import type { SessionIntent } from "../store/session-inbox.js";
import { surePercent } from "./words.js";

export type MoveIntent = Extract<SessionIntent, { kind: "move" }>;

/** How the usage writes a move's words. */
export const MOVE_WORDS = "[requests] <task|new>";

/**
 * The move the words of `/rcm move` (and the CLI's `move`) ask for. The last word is the
 * target (a task id or `new`); before it, which requests, by their number in the session
 * (`/rcm status` and the move picker show them): `3`, several `3 5 6`, a range `3-5`, or one and
 * every later one `3..`. With none, the last routed request.
 */
export function moveFromWords(ledger: Ledger, words: readonly string[]): MoveIntent | { problem: string } {
  const targetWord = words.at(-1);
  if (targetWord === undefined) return { problem: `needs a task id or new, e.g. move t2 (the last request); move 3 5 t2, move 3.. t2 (3 and every later one)` };
  const target = targetWord.toLowerCase() === "new" ? ({ kind: "new" } as const) : ({ kind: "task", task: targetWord.toLowerCase() } as const);
  if (target.kind === "task" && !ledger.tasks.some((task) => task.id === target.task)) {
    return { problem: `no task "${targetWord}" in this session (tasks: ${moveTargets(ledger).join(", ") || "none"}, or new)` };
  }
  if (ledger.order.length === 0) return { problem: "no request has been routed in this session yet" };
  const numbers = words.length === 1 ? [ledger.order.length] : requestNumbers(words.slice(0, -1), ledger.order.length);
  if ("problem" in numbers) return numbers;
  return moveOf(ledger, numbers, target);
}

/** The intent that moves these requests (numbers from 1, in session order) to `target`. */
export function moveOf(ledger: Ledger, numbers: readonly number[], target: MoveIntent["target"]): MoveIntent | { problem: string } {
  const requests = [...new Set(numbers)]
    .sort((a, b) => a - b)
    .flatMap((number) => {
      const messageID = ledger.order[number - 1];
      const from = messageID === undefined ? undefined : ledger.decisions[messageID]?.task;
      return messageID === undefined || from === undefined ? [] : [{ messageID, from }];
    });
  if (requests.length === 0) return { problem: "no such request in this session" };
  if (target.kind === "task") {
    const refused = splitTargetProblem(ledger, target.task);
    if (refused) return { problem: refused };
  }
  if (target.kind === "task" && requests.every((request) => request.from === target.task))
    return { problem: `${requests.length === 1 ? "that request is" : "those requests are"} in ${target.task} already` };
  return { kind: "move", requests, target };
}

/**
 * Why a request cannot move into `task`, if it cannot: a task split out (`/rcm split`) goes on
 * in its own session, and no model call of this one gets its history again, so a request
 * moved there would reach no call at all.
 */
export function splitTargetProblem(ledger: Ledger, task: string): string | undefined {
  const split = ledger.tasks.find((known) => known.id === task)?.split;
  if (!split) return undefined;
  const others = moveTargets(ledger);
  return `${task} is split out into session ${split.session}: no model call in this session gets its history, so a request moved there would be lost (move it to ${[...others, "new"].join(", ")}, or continue ${task} in ${split.session})`;
}

/** The tasks a request is offered to move to, as the task table lists them: not split out, not emptied by moves. */
function moveTargets(ledger: Ledger): string[] {
  return ledger.tasks.filter((task) => !task.split && taskRequestNumbers(ledger, task.id).length > 0).map((task) => task.id);
}

/** `3`, `3 5`, `3-5`, `3..` (and every later one), `3,5`: request numbers from 1 to `count`. */
function requestNumbers(words: readonly string[], count: number): number[] | { problem: string } {
  const numbers: number[] = [];
  for (const word of words.flatMap((part) => part.split(",")).filter(Boolean)) {
    const match = /^#?(\d+)(?:(\.\.|-)(\d*))?$/.exec(word);
    if (!match) return { problem: `"${word}" is not a request number (3, 3-5, or 3.. for 3 and every later one)` };
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : match[3] ? Number(match[3]) : count;
    if (first < 1 || first > count || last < first || last > count) return { problem: `no request ${word}: this session has requests 1 to ${count}` };
    for (let number = first; number <= last; number += 1) numbers.push(number);
  }
  return numbers;
}

/**
 * A request's number in the session, from 1 in the order requests were routed: the one
 * numbering `/rcm status`, `move`, `show` and the panel use. Undefined for a message never routed.
 */
export function requestNumber(ledger: Ledger | undefined, messageID: string): number | undefined {
  const position = ledger ? ledger.order.indexOf(messageID) : -1;
  return position < 0 ? undefined : position + 1;
}

/** "request 3", "requests 3, 5 and 6": the requests' numbers in the session. */
export function requestNumbersText(ledger: Ledger | undefined, messageIDs: readonly string[]): string {
  const numbers = messageIDs.flatMap((id) => requestNumber(ledger, id) ?? []);
  if (numbers.length === 0) return messageIDs.length === 1 ? "1 request" : `${messageIDs.length} requests`;
  if (numbers.length === 1) return `request ${numbers[0]}`;
  return `requests ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}

/**
 * Request numbers as `move` takes them, runs shortened: "#1-4 #6 #9-10". Each piece can be
 * typed back after `move` as it is.
 */
export function requestNumberRuns(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    const first = sorted[index] as number;
    let last = first;
    while (sorted[index + 1] === last + 1) {
      index += 1;
      last += 1;
    }
    index += 1;
    runs.push(last === first ? `#${first}` : `#${first}-${last}`);
  }
  return runs.join(" ");
}

/** The numbers of the requests routed to `task`, from 1 in session order. */
export function taskRequestNumbers(ledger: Ledger, task: string): number[] {
  return ledger.order.flatMap((id, position) => (ledger.decisions[id]?.task === task ? [position + 1] : []));
}

/** A move in words: which requests, from which tasks, to which task. */
export function describeMove(ledger: Ledger | undefined, move: { requests: readonly { messageID: string; from: string }[] }, to: string): string {
  const froms = [...new Set(move.requests.map((request) => request.from))].join(", ");
  return `${requestNumbersText(
    ledger,
    move.requests.map((request) => request.messageID),
  )} ${move.requests.length === 1 ? "moves" : "move"} from ${froms} to ${to}`;
}

/** A request a move touched only by its files: its edits landed in `task`'s files. */
export interface MoveSideEffect {
  messageID: string;
  task: string;
  files: readonly string[];
}

/**
 * What a move did besides the requests named, in words, one line each: requests it left where
 * they are although their edits now land in the target's files (with the move that takes them
 * too), and requests their own turn's edits settled in the same step.
 */
export function moveSideEffectLines(options: {
  ledger: Ledger | undefined;
  held: readonly MoveSideEffect[];
  followed: readonly MoveSideEffect[];
  moveCommand: string;
}): string[] {
  const { ledger, held, followed, moveCommand } = options;
  const where = (messageID: string) => ledger?.decisions[messageID]?.task ?? "its task";
  return [
    ...held.map((hold) => {
      const number = requestNumber(ledger, hold.messageID);
      return `${number === undefined ? "A request" : `Request ${number}`} stays in ${where(hold.messageID)} although its edits (${hold.files.join(", ")}) are now in ${hold.task}'s files; to move it too: ${moveCommand} ${number ?? "<n>"} ${hold.task}`;
    }),
    ...followed.map((follow) => {
      const number = requestNumber(ledger, follow.messageID);
      return `${number === undefined ? "A request" : `Request ${number}`} goes to ${follow.task} by its own turn's edits (${follow.files.join(", ")}, all ${follow.task}'s files), as it would have without this move`;
    }),
  ];
}

/**
 * What the move picker says beside a request (shown under its current task): whose the
 * confidence is. The router's confidence is for the task it routed to, which a relabel or a
 * move may since have changed: "routed to t1, 35% sure; its edits put it in t2".
 */
export function requestRowNote(entry: LedgerEntry, threshold: number): string {
  if (entry.router === "user") return `you moved it to ${entry.task}`;
  const routedTo = entry.relabelled?.from ?? entry.task;
  const routed = `${entry.opened && !entry.relabelled ? "opened" : "routed to"} ${routedTo}, ${surePercent(entry.confidence, threshold)} sure`;
  if (entry.relabelled) return `${routed}; ${entry.relabelled.by === "recall" ? "the model's recall" : "its edits"} put it in ${entry.task}`;
  if (entry.confirmed) return `${routed}; ${entry.confirmed.by === "next-request" ? "the next request" : "its edits"} bore it out`;
  return routed;
}
