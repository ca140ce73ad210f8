import type { Ledger } from "../core/routing/ledger.js";
import type { SessionIntent } from "../store/session-inbox.js";

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
    return { problem: `no task "${targetWord}" in this session (tasks: ${ledger.tasks.map((task) => task.id).join(", ") || "none"}, or new)` };
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
  if (target.kind === "task" && requests.every((request) => request.from === target.task))
    return { problem: `${requests.length === 1 ? "that request is" : "those requests are"} in ${target.task} already` };
  return { kind: "move", requests, target };
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

/** A move in words: which requests, from which tasks, to which task. */
export function describeMove(ledger: Ledger | undefined, move: { requests: readonly { messageID: string; from: string }[] }, to: string): string {
  const froms = [...new Set(move.requests.map((request) => request.from))].join(", ");
  return `${requestNumbersText(
    ledger,
    move.requests.map((request) => request.messageID),
  )} ${move.requests.length === 1 ? "moves" : "move"} from ${froms} to ${to}`;
}
