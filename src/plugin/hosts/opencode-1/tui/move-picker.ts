import type { TuiDialogSelectOption, TuiPluginApi } from "@opencode-ai/plugin/tui";
import { clip } from "../../../core/clip.js";
import { userRequestText } from "../../../core/interaction-groups.js";
import type { Part } from "../../../core/messages.js";
import { describeMove, type MoveIntent, moveOf, requestNumberRuns, requestRowNote } from "../../../session-views/move-selection.js";
import { taskRows } from "../../../session-views/render-status.js";
import { plural } from "../../../session-views/words.js";
import type { SessionState } from "../../../store/session-state-file.js";

/** What the picker needs from the menu: its dialogs, and how a change is posted. */
export interface PickerDialogs {
  select<Value>(title: string, options: TuiDialogSelectOption<Value>[], chosen: (value: Value) => void): void;
  alert(title: string, message: string): void;
  /** Posts the move and says `message` on screen. */
  post(intent: MoveIntent, message: string): void;
}

/** Characters of a request's text a row shows. */
const ROW_TEXT = 56;

/**
 * `/rcm move` with nothing typed after it: the session's requests by their text (newest
 * first), then what to move (this one, this one and every later one, or several marked one
 * by one), then where. Requests are numbered as `/rcm status` and `/rcm move 3.. t2` count them.
 */
export function openMovePicker(
  api: TuiPluginApi,
  state: SessionState,
  threshold: number,
  dialogs: PickerDialogs,
  marked: ReadonlySet<number> = new Set(),
): void {
  const { ledger } = state;
  const count = ledger.order.length;
  if (count === 0) {
    dialogs.alert("/rcm move", "No request has been routed in this session yet.");
    return;
  }
  const rows: TuiDialogSelectOption<number>[] = [];
  if (marked.size > 0)
    rows.push({
      title: `Move the ${plural(marked.size, "marked request")}…`,
      value: 0,
      description: [...marked]
        .sort((a, b) => a - b)
        .map((n) => `#${n}`)
        .join(" "),
    });
  for (let number = count; number >= 1; number -= 1) {
    const messageID = ledger.order[number - 1] ?? "";
    const entry = ledger.decisions[messageID];
    const mark = marked.has(number) ? "✓" : " ";
    rows.push({
      title: `${mark} #${number} ${entry?.task ?? "?"}  ${clip(requestText(api, messageID), ROW_TEXT)}`,
      value: number,
      description: entry ? requestRowNote(entry, threshold) : "",
    });
  }
  dialogs.select(`/rcm move: which request? (newest first)`, rows, (number) => {
    if (number === 0) return pickTarget(state, dialogs, [...marked]);
    const later = count - number;
    const what: TuiDialogSelectOption<string>[] = [
      { title: `only #${number}`, value: "only" },
      ...(later > 0 ? [{ title: `#${number} and every later request`, value: "later", description: `#${number} to #${count}` }] : []),
      { title: marked.has(number) ? `unmark #${number}, pick more` : `mark #${number}, pick more`, value: "mark" },
    ];
    dialogs.select(`/rcm move #${number}: what moves?`, what, (choice) => {
      if (choice === "only") return pickTarget(state, dialogs, [number]);
      if (choice === "later") return pickTarget(state, dialogs, range(number, count));
      const next = new Set(marked);
      if (next.has(number)) next.delete(number);
      else next.add(number);
      openMovePicker(api, state, threshold, dialogs, next);
    });
  });
}

/** Where the picked requests go: another task, or a new one titled after the first. */
function pickTarget(state: SessionState, dialogs: PickerDialogs, numbers: readonly number[]): void {
  const { ledger } = state;
  const froms = new Set(numbers.map((number) => ledger.decisions[ledger.order[number - 1] ?? ""]?.task));
  const targets: TuiDialogSelectOption<string>[] = [
    ...taskRows(ledger)
      .filter((row) => !(froms.size === 1 && froms.has(row.id)) && !row.status.startsWith("split"))
      .map((row) => ({
        title: `${row.id}  ${row.title}`,
        value: row.id,
        description: `${row.status}, ${plural(row.requests, "request")} ${requestNumberRuns(row.numbers)}`,
      })),
    { title: "new", value: "new", description: "a new task, titled after the first request" },
  ];
  const which = numbers.length === 1 ? `#${numbers[0]}` : `${numbers.length} requests`;
  dialogs.select(`/rcm move ${which} to…`, targets, (target) => {
    const intent = moveOf(ledger, numbers, target === "new" ? { kind: "new" } : { kind: "task", task: target });
    if ("problem" in intent) return dialogs.alert("/rcm move", intent.problem);
    dialogs.post(intent, `/rcm move: ${describeMove(ledger, intent, target === "new" ? "a new task" : target)}; the next model call follows.`);
  });
}

/** A request's text as the TUI has it (its synced parts), or its id when the TUI has not loaded it. */
function requestText(api: TuiPluginApi, messageID: string): string {
  const text = userRequestText(api.state.part(messageID) as unknown as Part[])
    .replace(/\s+/g, " ")
    .trim();
  return text === "" ? `(${messageID})` : text;
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}
