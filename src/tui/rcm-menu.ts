import type { TuiDialogSelectOption, TuiPluginApi } from "@opencode-ai/plugin/tui";
import { createComponent } from "solid-js";
import { listTasks, showTask } from "../core/memory/describe-tasks.js";
import { lastRouted } from "../core/routing/ledger.js";
import { renderStatus, renderTaskTable, renderWhy, taskRows, whenRecordWritten } from "../session-views/render-status.js";
import { plural } from "../session-views/words.js";
import { INTENT_TOAST_TITLE, postIntent, type SessionIntent } from "../store/session-inbox.js";
import type { SessionState } from "../store/session-state-file.js";
import { readSession, type TuiScope } from "./locate-state.js";

type Action = "status" | "why" | "tasks" | "show" | "move" | "off" | "on";

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
  const off = state?.off === true;
  // Short descriptions: the dialog cuts them at its width.
  const entries: TuiDialogSelectOption<Action>[] = [
    { title: "status", value: "status", description: "tasks, last decision, savings" },
    { title: "why", value: "why", description: "what the last model call got" },
    { title: "tasks", value: "tasks", description: "each task and its goal" },
    { title: "show…", value: "show", description: "a task's memory record" },
    { title: "move…", value: "move", description: "the last request to another task" },
    off ? { title: "on", value: "on", description: "back on for this session" } : { title: "off", value: "off", description: "native history for this session" },
  ];
  const options = entries.map((option) => ({ ...option, title: option.title.padEnd(MENU_TITLE_WIDTH) }));
  const pendingNote = pending > 0 ? ` (${plural(pending, "change")} waiting for the next request)` : "";
  select(api, `/rcm${pendingNote}`, options, (action) => void act(api, scope, sessionID, state, action, onError).catch(failed(api, onError, `/rcm ${action}`)));
}

/** A failure after the menu closed: in the log, and said on screen (the dialog is gone). */
function failed(api: TuiPluginApi, onError: (what: string, error: unknown) => void, what: string): (error: unknown) => void {
  return (error) => {
    onError(what, error);
    api.ui.toast({ variant: "error", title: "opencode-rcm", message: `${what} failed: ${error instanceof Error ? error.message : String(error)}` });
  };
}

async function act(api: TuiPluginApi, scope: TuiScope, sessionID: string, state: SessionState | undefined, action: Action, onError: (what: string, error: unknown) => void): Promise<void> {
  const { options } = scope;
  switch (action) {
    case "status":
      return alert(api, "/rcm status", renderStatus(options, state));
    case "why":
      return alert(api, "/rcm why", renderWhy(options, state?.lastCall, state));
    case "tasks":
      return alert(api, "/rcm tasks", state ? [...renderTaskTable(state.ledger), "", listTasks(state.ledger, state.records)].join("\n") : renderStatus(options, state));
    case "show": {
      if (!state || state.ledger.tasks.length === 0) return alert(api, "/rcm show", renderStatus(options, state));
      return select(api, "/rcm show: which task?", taskOptions(state), (task) =>
        alert(api, `/rcm show ${task}`, showTask(state.ledger, state.records, task, options.memory.recordTokens, whenRecordWritten(options, task))),
      );
    }
    case "move": {
      const messageID = state ? lastRouted(state.ledger)?.messageID : undefined;
      if (!state || messageID === undefined) return alert(api, "/rcm move", "No request has been routed in this session yet.");
      const from = state.ledger.decisions[messageID]?.task ?? "?";
      const targets: TuiDialogSelectOption<string>[] = [...taskOptions(state).filter((option) => option.value !== from), { title: "new", value: "new", description: "a new task, titled after the request" }];
      return select(api, `/rcm move: request ${state.ledger.order.length} (now ${from}) belongs to…`, targets, (target) =>
        void change(api, scope, sessionID, { kind: "move", messageID, from, target: target === "new" ? { kind: "new" } : { kind: "task", task: target } }, `/rcm move ${target}: request ${state.ledger.order.length} moves from ${from} to ${target === "new" ? "a new task" : target}; the next model call follows it.`).catch(failed(api, onError, `/rcm move ${target}`)),
      );
    }
    case "off":
    case "on":
      return change(api, scope, sessionID, { kind: action }, action === "off" ? "/rcm off: native history for this session from the next model call (/rcm on to resume)." : "/rcm on: opencode-rcm is back on for this session.");
  }
}

function taskOptions(state: SessionState): TuiDialogSelectOption<string>[] {
  return taskRows(state.ledger).map((row) => ({ title: `${row.id}  ${row.title}`, value: row.id, description: `${row.status}, ${plural(row.requests, "request")}` }));
}

/** Posts the change, then says so through the server: its toast is what makes the server apply it now. */
async function change(api: TuiPluginApi, scope: TuiScope, sessionID: string, intent: SessionIntent, message: string): Promise<void> {
  api.ui.dialog.clear();
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
