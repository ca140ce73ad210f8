import { clip } from "../../../core/clip.js";
import { moveOf, requestNumberRuns, requestRowNote } from "../../../session-views/move-selection.js";
import { taskRows } from "../../../session-views/render-status.js";
import { plural } from "../../../session-views/words.js";
import type { SessionState } from "../../../store/session-state-file.js";
import type { ListedMessage, SelectOption, TuiApi } from "./api.js";

/** Characters of a request's text a row shows. */
const ROW_TEXT = 56;

/** The move picked: the requests (numbers from 1, as `/rcm status` counts them) and where they go. */
export interface PickedMove {
  numbers: number[];
  target: string;
}

/**
 * `/rcm move` with nothing typed after it: the session's requests by their text (newest first),
 * then what moves (this one, or this one and every later one), then where. Resolves with the
 * move, or undefined when the person closed a dialog or the move is refused (said in a dialog).
 */
export async function pickMove(api: TuiApi, sessionID: string, state: SessionState, threshold: number): Promise<PickedMove | undefined> {
  const { ledger } = state;
  const count = ledger.order.length;
  const texts = await requestTexts(api, sessionID);
  const rows: SelectOption<number>[] = [];
  for (let number = count; number >= 1; number -= 1) {
    const messageID = ledger.order[number - 1] ?? "";
    const entry = ledger.decisions[messageID];
    rows.push({
      title: `#${number} ${entry?.task ?? "?"}  ${clip(texts.get(messageID) ?? `(${messageID})`, ROW_TEXT)}`,
      value: number,
      description: entry ? requestRowNote(entry, threshold) : "",
    });
  }
  const number = await wide(api, api.ui.dialog.select({ title: "/rcm move: which request? (newest first)", options: rows }));
  if (number === undefined) return undefined;
  const later = count - number;
  const what = await api.ui.dialog.select<"only" | "later">({
    title: `/rcm move #${number}: what moves?`,
    options: [
      { title: `only #${number}`, value: "only" },
      ...(later > 0 ? [{ title: `#${number} and every later request`, value: "later" as const, description: `#${number} to #${count}` }] : []),
    ],
  });
  if (what === undefined) return undefined;
  const numbers = what === "only" ? [number] : Array.from({ length: later + 1 }, (_, index) => number + index);
  const from = ledger.decisions[ledger.order[number - 1] ?? ""]?.task;
  const targets: SelectOption<string>[] = [
    ...taskRows(ledger)
      .filter((row) => !(numbers.length === 1 && row.id === from) && !row.status.startsWith("split"))
      .map((row) => ({
        title: `${row.id}  ${row.title}`,
        value: row.id,
        description: `${row.status}, ${plural(row.requests, "request")} ${requestNumberRuns(row.numbers)}`,
      })),
    { title: "new", value: "new", description: "a new task, titled after the first request" },
  ];
  const which = numbers.length === 1 ? `#${number}` : `${numbers.length} requests`;
  const target = await wide(api, api.ui.dialog.select({ title: `/rcm move ${which} to…`, options: targets }));
  if (target === undefined) return undefined;
  const intent = moveOf(ledger, numbers, target === "new" ? { kind: "new" } : { kind: "task", task: target });
  if ("problem" in intent) {
    void api.ui.dialog.alert({ title: "/rcm move", message: intent.problem });
    return undefined;
  }
  return { numbers, target };
}

/** The widest dialog: a row shows a request's text and a note on its decision. */
function wide<Value>(api: TuiApi, shown: Promise<Value | undefined>): Promise<Value | undefined> {
  api.ui.dialog.set({ size: "xlarge" });
  return shown;
}

/** The most user messages one page of 2.0.15's message list holds. */
const PAGE = 200;

/** The user requests' texts as the server stored them (the newest page), by message id; none when the server does not answer. */
async function requestTexts(api: TuiApi, sessionID: string): Promise<Map<string, string>> {
  const answer = await api.client.message.list({ sessionID, type: "user", order: "desc", limit: PAGE }).catch(() => [] as ListedMessage[]);
  const messages = Array.isArray(answer) ? answer : (answer.data ?? []);
  return new Map(
    messages
      .filter((message) => message.type === "user" && typeof message.text === "string")
      .map((message) => [message.id, (message.text ?? "").replace(/\s+/g, " ").trim()]),
  );
}
