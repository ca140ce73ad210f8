import type { TuiDialogSelectOption, TuiPluginApi } from "@opencode-ai/plugin/tui";
import { createComponent } from "solid-js";
import { lastRouted } from "../core/routing/ledger.js";
import { RCM_VERBS, type RcmVerb, rcmVerb } from "../session-views/rcm-verbs.js";
import { taskRows } from "../session-views/render-status.js";
import { plural } from "../session-views/words.js";
import { INTENT_TOAST_TITLE, postIntent, type SessionIntent } from "../store/session-inbox.js";
import type { SessionState } from "../store/session-state-file.js";
import { readSession, type TuiScope } from "./locate-state.js";

/** The menu's entries padded to one width, so each description starts in one column. */
const MENU_TITLE_WIDTH = 8;

/**
 * `/rcm` in the TUI: a menu of what the server-side command did, run here with no model turn
 * and no request that can fail. Reading is straight from the state file; a change (move,
 * off, on) goes to the session's inbox and is announced with a toast through the server,
 * which applies it on seeing the toast.
 */
export async function openRcmMenu(api: TuiPluginApi, scope: TuiScope, onError: (what: string, error: unknown) => void): Promise<void> {
  const sessionID = currentSession(api);
  if (!sessionID || !scope.stateDir) {
    api.ui.toast({ variant: "info", title: "opencode-rcm", message: "Open a session first: /rcm works on the session on screen." });
    return;
  }
  const { state, pending } = await readSession(scope.stateDir, sessionID);
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
    if (verb) void act(api, scope, sessionID, state, verb, onError).catch(failed(api, onError, `/rcm ${name}`));
  });
}

/** A failure after the menu closed: in the log, and said on screen (the dialog is gone). */
function failed(api: TuiPluginApi, onError: (what: string, error: unknown) => void, what: string): (error: unknown) => void {
  return (error) => {
    onError(what, error);
    api.ui.toast({ variant: "error", title: "opencode-rcm", message: `${what} failed: ${error instanceof Error ? error.message : String(error)}` });
  };
}

async function act(api: TuiPluginApi, scope: TuiScope, sessionID: string, state: SessionState | undefined, verb: RcmVerb, onError: (what: string, error: unknown) => void): Promise<void> {
  const { options } = scope;
  const title = `/rcm ${verb.name}`;
  if (verb.kind === "read") {
    if (!verb.argument) return alert(api, title, verb.answer({ options, state }));
    if (!state || state.ledger.tasks.length === 0) return alert(api, title, verb.answer({ options, state }));
    return select(api, `${title}: which task?`, taskOptions(state), (task) => alert(api, `${title} ${task}`, verb.answer({ options, state }, task)));
  }
  if (!verb.argument) return change(api, scope, sessionID, verb.intent(state), SWITCHED[verb.name] ?? `${title}: applied at the next model call.`);
  // move: the last routed request, to another task or a new one.
  const last = state ? lastRouted(state.ledger) : undefined;
  if (!state || last === undefined) return alert(api, title, "No request has been routed in this session yet.");
  const from = last.entry.task;
  const requestNumber = state.ledger.order.length;
  const targets: TuiDialogSelectOption<string>[] = [...taskOptions(state).filter((option) => option.value !== from), { title: "new", value: "new", description: "a new task, titled after the request" }];
  return select(api, `${title}: request ${requestNumber} (now ${from}) belongs to…`, targets, (target) =>
    void change(api, scope, sessionID, verb.intent(state, target), `${title} ${target}: request ${requestNumber} moves from ${from} to ${target === "new" ? "a new task" : target}; the next model call follows it.`).catch(
      failed(api, onError, `${title} ${target}`),
    ),
  );
}

/** What the TUI says when a switch is posted. */
const SWITCHED: Readonly<Record<string, string>> = {
  off: "/rcm off: native history for this session from the next model call (/rcm on to resume).",
  on: "/rcm on: opencode-rcm is back on for this session.",
};

function taskOptions(state: SessionState): TuiDialogSelectOption<string>[] {
  return taskRows(state.ledger).map((row) => ({ title: `${row.id}  ${row.title}`, value: row.id, description: `${row.status}, ${plural(row.requests, "request")}` }));
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
  api.ui.dialog.replace(() => createComponent(api.ui.DialogSelect<Value>, { title, options, onSelect: (option: TuiDialogSelectOption<Value>) => chosen(option.value) }));
}

function alert(api: TuiPluginApi, title: string, message: string): void {
  api.ui.dialog.replace(() => createComponent(api.ui.DialogAlert, { title, message, onConfirm: () => api.ui.dialog.clear() }));
  // The widest: the task table keeps its columns on a usual terminal.
  api.ui.dialog.setSize("xlarge");
}

/** The session on screen, if the TUI shows one. */
function currentSession(api: TuiPluginApi): string | undefined {
  const route = api.route.current;
  if (route.name !== "session" || !route.params) return undefined;
  const id = (route.params as { sessionID?: unknown }).sessionID;
  return typeof id === "string" ? id : undefined;
}
