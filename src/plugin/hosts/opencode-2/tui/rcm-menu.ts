import { messageOf } from "../../../../kit/errors/message-of.js";
import { RCM_COMMAND } from "../../../handlers/rcm-command.js";
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
import { earlierSessionsTasks } from "../../../store/unfinished-tasks.js";
import type { SelectOption, TuiApi } from "./api.js";
import { pickMove } from "./move-picker.js";
import { sessionOnScreen } from "./on-screen.js";

/** The menu's entries padded to one width, so each description starts in one column. */
const MENU_TITLE_WIDTH = 8;

interface Opened {
  sessionID: string;
  scope: TuiScope;
  stateDir: string;
  state: SessionState | undefined;
  pending: number;
}

/**
 * `/rcm` and `/rcm <words>` in OpenCode 2's TUI: with no words, a menu of the verbs; with
 * words, what the menu's entry does with them as its argument (`/rcm why`, `/rcm show t2`,
 * `/rcm move 3.. t2`). Reading is straight from the state file, with no model turn. A change
 * (move, off, on, split) is handed to the server's `/rcm-text`, which applies it at once and
 * answers in the transcript (2.0.15 lets a command finish with no model turn); when no server
 * answers, it waits in the session's inbox for the next request, as on 1.18.
 */
export async function runRcm(api: TuiApi, scope: () => Promise<TuiScope | undefined>, line: string): Promise<void> {
  const typed = parseTypedVerb(line);
  if (typed.kind === "unknown") {
    api.ui.toast.show({ variant: "warning", title: "opencode-rcm", message: unknownVerbHint(typed, "rcm"), duration: 8000 });
    return;
  }
  const opened = await openSession(api, scope);
  if (!opened) return;
  if (typed.kind === "menu") return openMenu(api, opened);
  // A switch typed the way it already is: said, not sent (the menu offers only the other one).
  if ((typed.verb.name === "off" || typed.verb.name === "on") && typed.verb.kind === "change" && !typed.verb.offered(opened.state)) {
    return alert(api, `/rcm ${typed.verb.name}`, `opencode-rcm is ${opened.state?.off ? "off" : "on"} for this session already.`);
  }
  await act(api, opened, typed.verb, typed.words);
}

async function openMenu(api: TuiApi, opened: Opened): Promise<void> {
  const { state, pending } = opened;
  // From the verbs' list (session-views/rcm-verbs.ts): a verb added there is offered here.
  const options: SelectOption<string>[] = RCM_VERBS.filter((verb) => verb.kind === "read" || verb.offered(state)).map((verb) => ({
    title: (verb.argument ? `${verb.name}…` : verb.name).padEnd(MENU_TITLE_WIDTH),
    value: verb.name,
    description: verb.summary,
  }));
  const pendingNote = pending > 0 ? ` (${plural(pending, "change")} waiting for the next request)` : "";
  const name = await api.ui.dialog.select({ title: `/rcm${pendingNote}`, options });
  const verb = name === undefined ? undefined : rcmVerb(name);
  if (verb) await act(api, opened, verb, [], true);
}

/** The session on screen, its scope and state, or a toast saying there is none. */
async function openSession(api: TuiApi, scope: () => Promise<TuiScope | undefined>): Promise<Opened | undefined> {
  const sessionID = sessionOnScreen(api);
  const located = await scope();
  if (!sessionID || !located?.stateDir) {
    api.ui.toast.show({ variant: "info", title: "opencode-rcm", message: "Open a session first: /rcm works on the session on screen." });
    return undefined;
  }
  const { state, pending } = await readSession(located.stateDir, sessionID);
  return { sessionID, scope: located, stateDir: located.stateDir, state, pending };
}

/** A verb, with the words typed after it (none from the menu: then a verb that takes an argument asks for it). */
async function act(api: TuiApi, opened: Opened, verb: RcmVerb, words: readonly string[], fromMenu = false): Promise<void> {
  const { state, scope } = opened;
  const { options, problems } = scope;
  const title = `/rcm ${verb.name}`;
  if (verb.kind === "mark" || verb.name === "resume") return actOnEarlier(api, opened, verb, words, fromMenu);
  if (verb.kind === "read") {
    if (!verb.argument || !state || state.ledger.tasks.length === 0) return alert(api, title, verb.answer({ options, state, problems }));
    const typed = words[0]?.toLowerCase();
    // `/rcm show t1 model`: the text the model gets, instead of the record for a person.
    const asModel = words[1]?.toLowerCase() === "model";
    if (typed !== undefined)
      return alert(api, `${title} ${typed}${asModel ? " model" : ""}`, verb.answer({ options, state, as: asModel ? "model" : "person" }, typed));
    const task = await api.ui.dialog.select({ title: `${title}: which task?`, options: taskChoices(state) });
    if (task !== undefined) alert(api, `${title} ${task}`, verb.answer({ options, state }, task));
    return;
  }
  if (verb.name === "split") {
    let task = words[0];
    if (task === undefined && state && verb.offered(state)) {
      const open = taskChoices(state).filter((option) => !state.ledger.tasks.find((known) => known.id === option.value)?.split);
      task = await api.ui.dialog.select({ title: `${title}: which task?`, options: open });
      if (task === undefined) return;
    }
    const split = task === undefined ? [] : [task];
    return change(
      api,
      opened,
      verb.intent(state, split),
      [verb.name, ...split],
      `${title} ${task ?? ""}: a new session for it, named in the transcript's answer.`,
    );
  }
  if (verb.name !== "move") return change(api, opened, verb.intent(state, words), [verb.name], menuChangeMessage(verb.name, title));
  if (!state || state.ledger.order.length === 0) return alert(api, title, "No request has been routed in this session yet.");
  let typed = words;
  if (typed.length === 0) {
    const picked = await pickMove(api, opened.sessionID, state, options.confidenceThreshold);
    if (!picked) return;
    typed = [...picked.numbers.map(String), picked.target];
  }
  const intent = verb.intent(state, typed);
  const message =
    "problem" in intent || intent.kind !== "move"
      ? ""
      : `${title}: ${describeMove(state.ledger, intent, intent.target.kind === "new" ? "a new task" : intent.target.task)}; the next model call follows.`;
  return change(api, opened, intent, [verb.name, ...typed], message);
}

/**
 * `resume`, `done`, `drop`: over the earlier sessions' unfinished tasks, read from the state
 * folder as the panel reads them. From the menu, a picker; typed alone, the numbered list;
 * typed with a task, at once. A resumption goes through the server (`/rcm-text resume
 * <session>/<task>`, else the inbox); a mark to task-marks.json.
 */
async function actOnEarlier(api: TuiApi, opened: Opened, verb: RcmVerb, words: readonly string[], fromMenu: boolean): Promise<void> {
  const { state, scope, stateDir, sessionID } = opened;
  const { options } = scope;
  const title = `/rcm ${verb.name}`;
  if (verb.kind === "read") return;
  const needs = verb.kind === "change" ? resumeNeedsMemory(options.mode) : undefined;
  if (needs) return alert(api, title, needs);
  const now = new Date();
  const earlier = await earlierSessionsTasks({ stateDir, sessionID, resume: options.resume, now });
  const context = { sessionID, earlier };
  let picked = words;
  if (picked.length === 0) {
    if (!fromMenu) {
      return alert(api, title, earlierListText(earlier, now, earlierHint(verb)));
    }
    const choices = verb.kind === "change" ? resumeChoices(earlier, now) : markChoices(state, earlier, now);
    if (choices.length === 0) return alert(api, title, earlierListText(earlier, now, ""));
    const value = await api.ui.dialog.select({ title: `${title}: which task?`, options: choices });
    if (value === undefined) return;
    picked = [value];
  }
  if (verb.kind === "change") {
    const intent = verb.intent(state, picked, context);
    const key = "problem" in intent || intent.kind !== "resume" ? undefined : intent.key;
    const task = earlier.find((known) => `${known.sessionID}/${known.taskId}` === key);
    const message = task ? resumePostedText(task, title) : "";
    return change(api, opened, intent, [verb.name, ...(key ? [key] : picked)], message);
  }
  const target = verb.target(state, picked, context);
  api.ui.dialog.clear();
  if ("problem" in target) return alert(api, title, target.problem);
  await markTask(stateDir, { sessionID: target.sessionID, taskId: target.taskId, mark: verb.mark, at: new Date() });
  api.ui.toast.show({ title: INTENT_TOAST_TITLE, message: markedText(target, verb.mark), variant: "success", duration: 5000 });
}

/**
 * Applies the change through the server's `/rcm-text` (the server holds the session's state and
 * applies it at once); when that fails, posts it to the session's inbox, applied at the next request.
 */
async function change(api: TuiApi, opened: Opened, intent: SessionIntent | { problem: string }, words: readonly string[], message: string): Promise<void> {
  api.ui.dialog.clear();
  if ("problem" in intent) return alert(api, "/rcm", intent.problem);
  const { sessionID, stateDir } = opened;
  try {
    await api.client.session.command({ sessionID, name: RCM_COMMAND, text: words.join(" ") });
    api.ui.toast.show({ title: INTENT_TOAST_TITLE, message, variant: "success", duration: 5000 });
  } catch (error) {
    await postIntent(stateDir, sessionID, intent);
    api.ui.toast.show({
      title: INTENT_TOAST_TITLE,
      message: `${message} (applied at the next request: ${messageOf(error)})`,
      variant: "success",
      duration: 8000,
    });
  }
}

function alert(api: TuiApi, title: string, message: string): void {
  void api.ui.dialog.alert({ title, message });
  // The widest: the task table keeps its columns on a usual terminal.
  api.ui.dialog.set({ size: "xlarge" });
}
