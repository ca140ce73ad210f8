import type { TuiDialogSelectOption, TuiPluginApi } from "@opencode-ai/plugin/tui";
import { createComponent } from "solid-js";
import { messageOf } from "../../../../kit/errors/message-of.js";
import {
  earlierHint,
  earlierListText,
  markChoices,
  markedText,
  resumeChoices,
  resumeNeedsMemory,
  resumePostedText,
} from "../../../session-views/earlier-tasks.js";
import { describeMove } from "../../../session-views/move-selection.js";
import { menuChangeMessage, RCM_VERBS, type RcmVerb, rcmVerb, taskChoices } from "../../../session-views/rcm-verbs.js";
import { parseTypedVerb, unknownVerbHint } from "../../../session-views/typed-verb.js";
import { plural } from "../../../session-views/words.js";
import { readSession, type TuiScope } from "../../../store/locate-state.js";
import { INTENT_TOAST_TITLE, postIntent, type SessionIntent } from "../../../store/session-inbox.js";
import type { SessionState } from "../../../store/session-state-file.js";
import { markTask } from "../../../store/task-marks.js";
import { takeTypedVerb } from "../../../store/typed-verb-file.js";
import { earlierSessionsTasks } from "../../../store/unfinished-tasks.js";
import { openMovePicker, type PickerDialogs } from "./move-picker.js";
import { sessionOnScreen } from "./session-on-screen.js";

/** The menu's entries padded to one width, so each description starts in one column. */
const MENU_TITLE_WIDTH = 8;

/**
 * `/rcm` in the TUI: a menu of what the server-side command did, run here with no model turn
 * and no request that can fail. Reading is straight from the state file; a change (move,
 * off, on) goes to the session's inbox and is announced with a toast through the server,
 * which applies it on seeing the toast.
 */
export async function openRcmMenu(api: TuiPluginApi, scope: TuiScope, onError: (what: string, error: unknown) => void): Promise<void> {
  const opened = await openSession(api, scope);
  if (!opened) return;
  const { sessionID, state, pending } = opened;
  // From the verbs' list (session-views/rcm-verbs.ts): a verb added there is offered here. Short descriptions: the dialog cuts them at its width.
  const entries: TuiDialogSelectOption<string>[] = RCM_VERBS.filter((verb) => verb.kind === "read" || verb.offered(state)).map((verb) => ({
    title: verb.argument ? `${verb.name}…` : verb.name,
    value: verb.name,
    description: verb.summary,
  }));
  const options = entries.map((option) => ({ ...option, title: option.title.padEnd(MENU_TITLE_WIDTH) }));
  const pendingNote = pending > 0 ? ` (${plural(pending, "change")} waiting for the next request)` : "";
  select(api, `/rcm${pendingNote}`, options, (name) => {
    const verb = rcmVerb(name);
    if (verb) void act(api, scope, sessionID, state, verb, [], onError, true).catch(failed(api, onError, `/rcm ${name}`));
  });
}

/**
 * `/rcm <words>` typed and sent: what the menu's entry does, with the words as its argument
 * (`/rcm show t2`, `/rcm move 3.. t2`); a word that is no verb gets a one-line hint.
 */
async function runTypedRcm(api: TuiPluginApi, scope: TuiScope, line: string, onError: (what: string, error: unknown) => void): Promise<void> {
  const typed = parseTypedVerb(line);
  if (typed.kind === "menu") return openRcmMenu(api, scope, onError);
  if (typed.kind === "unknown") {
    api.ui.toast({ variant: "warning", title: "opencode-rcm", message: unknownVerbHint(typed, "rcm"), duration: 8000 });
    return;
  }
  const opened = await openSession(api, scope);
  if (!opened) return;
  // A switch typed the way it already is: said, not posted (the menu offers only the other one).
  if ((typed.verb.name === "off" || typed.verb.name === "on") && typed.verb.kind === "change" && !typed.verb.offered(opened.state)) {
    return alert(api, `/rcm ${typed.verb.name}`, `opencode-rcm is ${opened.state?.off ? "off" : "on"} for this session already.`);
  }
  await act(api, scope, opened.sessionID, opened.state, typed.verb, typed.words, onError).catch(failed(api, onError, `/rcm ${line.trim()}`));
}

/** The typed `/rcm <words>` the server left for the session on screen, answered here. */
export async function runTypedFromServer(api: TuiPluginApi, scope: TuiScope, onError: (what: string, error: unknown) => void): Promise<void> {
  const sessionID = sessionOnScreen(api);
  if (!sessionID || !scope.stateDir) return;
  const words = await takeTypedVerb(scope.stateDir, sessionID);
  if (words !== undefined) await runTypedRcm(api, scope, words, onError);
}

/** The session on screen and its state, or a toast saying there is none. */
async function openSession(api: TuiPluginApi, scope: TuiScope): Promise<{ sessionID: string; state: SessionState | undefined; pending: number } | undefined> {
  const sessionID = sessionOnScreen(api);
  if (!sessionID || !scope.stateDir) {
    api.ui.toast({ variant: "info", title: "opencode-rcm", message: "Open a session first: /rcm works on the session on screen." });
    return undefined;
  }
  const { state, pending } = await readSession(scope.stateDir, sessionID);
  return { sessionID, state, pending };
}

/** A failure after the menu closed: in the log, and said on screen (the dialog is gone). */
function failed(api: TuiPluginApi, onError: (what: string, error: unknown) => void, what: string): (error: unknown) => void {
  return (error) => {
    onError(what, error);
    api.ui.toast({ variant: "error", title: "opencode-rcm", message: `${what} failed: ${messageOf(error)}` });
  };
}

/** A verb, with the words typed after it (none from the menu: then a verb that takes an argument asks for it). */
async function act(
  api: TuiPluginApi,
  scope: TuiScope,
  sessionID: string,
  state: SessionState | undefined,
  verb: RcmVerb,
  words: readonly string[],
  onError: (what: string, error: unknown) => void,
  fromMenu = false,
): Promise<void> {
  const { options, problems } = scope;
  const title = `/rcm ${verb.name}`;
  if (verb.kind === "mark" || verb.name === "resume") return actOnEarlier(api, scope, sessionID, state, verb, words, onError, fromMenu);
  if (verb.kind === "read") {
    if (!verb.argument || !state || state.ledger.tasks.length === 0) return alert(api, title, verb.answer({ options, state, problems }));
    const typed = words[0]?.toLowerCase();
    // `/rcm show t1 model`: the text the model gets, instead of the record for a person.
    const asModel = words[1]?.toLowerCase() === "model";
    if (typed !== undefined)
      return alert(api, `${title} ${typed}${asModel ? " model" : ""}`, verb.answer({ options, state, as: asModel ? "model" : "person" }, typed));
    return select(api, `${title}: which task?`, taskChoices(state), (task) => alert(api, `${title} ${task}`, verb.answer({ options, state }, task)));
  }
  const post = (intent: SessionIntent | { problem: string }, message: string) =>
    void change(api, scope, sessionID, intent, message).catch(failed(api, onError, title));
  if (verb.name === "split") {
    // The server opens the new session and brings it on screen once it has applied the split.
    const message = (task: string) => `${title} ${task}: opening a session for it…`;
    if (words.length > 0 || !state || !verb.offered(state)) return change(api, scope, sessionID, verb.intent(state, words), message(words[0] ?? ""));
    const open = taskChoices(state).filter((option) => !state.ledger.tasks.find((task) => task.id === option.value)?.split);
    return select(api, `${title}: which task?`, open, (task) => post(verb.intent(state, [task]), message(task)));
  }
  if (verb.name !== "move") return change(api, scope, sessionID, verb.intent(state, words), menuChangeMessage(verb.name, title));
  if (!state || state.ledger.order.length === 0) return alert(api, title, "No request has been routed in this session yet.");
  if (words.length > 0) {
    const intent = verb.intent(state, words);
    const message =
      "problem" in intent || intent.kind !== "move"
        ? ""
        : `${title}: ${describeMove(state.ledger, intent, intent.target.kind === "new" ? "a new task" : intent.target.task)}; the next model call follows.`;
    return change(api, scope, sessionID, intent, message);
  }
  // The widest: a row shows a request's text, and whose confidence it had (a note up to ~50 characters).
  const wide: PickerDialogs["select"] = (pickTitle, pickOptions, chosen) => {
    select(api, pickTitle, pickOptions, chosen);
    api.ui.dialog.setSize("xlarge");
  };
  openMovePicker(api, state, options.confidenceThreshold, { select: wide, alert: (alertTitle, message) => alert(api, alertTitle, message), post });
}

/**
 * `resume`, `done`, `drop`: over the earlier sessions' unfinished tasks, read from the state
 * folder as the panel reads them. From the menu, a picker; typed alone, the numbered list;
 * typed with a task, at once. A resumption goes to the inbox; a mark to task-marks.json.
 */
async function actOnEarlier(
  api: TuiPluginApi,
  scope: TuiScope,
  sessionID: string,
  state: SessionState | undefined,
  verb: RcmVerb,
  words: readonly string[],
  onError: (what: string, error: unknown) => void,
  fromMenu: boolean,
): Promise<void> {
  const { options, stateDir } = scope;
  const title = `/rcm ${verb.name}`;
  if (!stateDir || verb.kind === "read") return;
  const needs = verb.kind === "change" ? resumeNeedsMemory(options.mode) : undefined;
  if (needs) return alert(api, title, needs);
  const now = new Date();
  const earlier = await earlierSessionsTasks({ stateDir, sessionID, resume: options.resume, now });
  const context = { sessionID, earlier };
  const run = async (picked: readonly string[]): Promise<void> => {
    if (verb.kind === "change") {
      const intent = verb.intent(state, picked, context);
      const task = "problem" in intent || intent.kind !== "resume" ? undefined : earlier.find((known) => `${known.sessionID}/${known.taskId}` === intent.key);
      const message = task ? resumePostedText(task, title) : "";
      return change(api, scope, sessionID, intent, message);
    }
    const target = verb.target(state, picked, context);
    api.ui.dialog.clear();
    if ("problem" in target) return alert(api, title, target.problem);
    await markTask(stateDir, { sessionID: target.sessionID, taskId: target.taskId, mark: verb.mark, at: new Date() });
    api.ui.toast({ title: INTENT_TOAST_TITLE, message: markedText(target, verb.mark), variant: "success", duration: 5000 });
  };
  if (words.length > 0) return run(words);
  if (!fromMenu) {
    return alert(api, title, earlierListText(earlier, now, earlierHint(verb)));
  }
  const choices = verb.kind === "change" ? resumeChoices(earlier, now) : markChoices(state, earlier, now);
  if (choices.length === 0) return alert(api, title, earlierListText(earlier, now, ""));
  select(api, `${title}: which task?`, choices, (value) => void run([value]).catch(failed(api, onError, title)));
  api.ui.dialog.setSize("xlarge");
}

/** Posts the change, then says so through the server: its toast is what makes the server apply it now. */
async function change(api: TuiPluginApi, scope: TuiScope, sessionID: string, intent: SessionIntent | { problem: string }, message: string): Promise<void> {
  api.ui.dialog.clear();
  if ("problem" in intent) return alert(api, "/rcm", intent.problem);
  if (!scope.stateDir) return;
  await postIntent(scope.stateDir, sessionID, intent);
  try {
    await api.client.tui.showToast({ title: INTENT_TOAST_TITLE, message, variant: "success", duration: 5000 });
  } catch {
    // No server answered: the change still waits in the inbox for the session's next request.
    api.ui.toast({ title: INTENT_TOAST_TITLE, message: `${message} (applied at the next request)`, variant: "success" });
  }
}

function select<Value>(api: TuiPluginApi, title: string, options: TuiDialogSelectOption<Value>[], chosen: (value: Value) => void): void {
  api.ui.dialog.replace(() =>
    createComponent(api.ui.DialogSelect<Value>, { title, options, onSelect: (option: TuiDialogSelectOption<Value>) => chosen(option.value) }),
  );
}

function alert(api: TuiPluginApi, title: string, message: string): void {
  api.ui.dialog.replace(() => createComponent(api.ui.DialogAlert, { title, message, onConfirm: () => api.ui.dialog.clear() }));
  // The widest: the task table keeps its columns on a usual terminal.
  api.ui.dialog.setSize("xlarge");
}
