import { appendFile, mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { messageOf } from "../../../../kit/errors/message-of.js";
import { problemsToastMessage, problemsToastTitle, TOAST_TEXT_WIDTH } from "../../../session-views/config-problems.js";
import { RCM_MENU_TITLE } from "../../../session-views/rcm-verbs.js";
import { defaultStateRoot } from "../../../store/state-dir.js";
import { announceDecisions } from "./announce.js";
import type { TuiApi } from "./api.js";
import { runRcm } from "./rcm-menu.js";
import { scopeOf } from "./scope.js";
import { recordScreen } from "./screen-marker.js";
import { taskPanel } from "./task-panel.js";

/** The log file the server part writes too, in the state root (`${XDG_DATA_HOME:-~/.local/share}/opencode/rcm/`). */
const LOG_FILE = "opencode-rcm.log";
/** Seconds the options' problems wait for the TUI to know its folder. */
const LOCATION_TRIES = 30;

/**
 * The OpenCode 2 TUI part (`setup`): the sidebar's task panel, `/rcm` (a menu, or a typed verb)
 * run inside the TUI, and the toasts 1.18's server part shows. 2.0.15 loads it from the
 * package's `tui` entry (a folder's `tui.js`) for every plug-in the server lists with a TUI
 * part. It reads what the server part writes and never breaks the TUI: a failure is logged
 * (the state root's log file: the TUI's stderr is its screen) and the TUI goes on without it.
 */
export async function setup(api: TuiApi): Promise<() => Promise<void>> {
  const logFile = join(defaultStateRoot(process.env, homedir()), LOG_FILE);
  const log = (what: string, error: unknown): void => {
    const line = `${new Date().toISOString()} opencode-rcm warn tui: ${what}: ${messageOf(error)}\n`;
    void mkdir(join(logFile, ".."), { recursive: true })
      .then(() => appendFile(logFile, line, "utf8"))
      .catch(() => undefined);
  };
  const scope = scopeOf(api);
  let problemsShown = false;
  const showProblems = async (): Promise<void> => {
    // The TUI may not know its folder yet when it first draws: looked at again for a while.
    let located = await scope();
    for (let tries = 0; !located && tries < LOCATION_TRIES; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      located = await scope();
    }
    if (!located || problemsShown || located.problems.length === 0) return;
    problemsShown = true;
    api.ui.toast.show({
      variant: "warning",
      title: problemsToastTitle(located.problems.length),
      message: problemsToastMessage({ problems: located.problems, width: TOAST_TEXT_WIDTH }),
      duration: 10_000,
    });
  };
  api.ui.slot({
    append: "sidebar.content",
    // Runs at render time: a failure leaves the sidebar without the panel, never breaks it.
    render: (input) => {
      try {
        return input.sessionID ? taskPanel(api, scope, input.sessionID, (error) => log("task panel", error)) : null;
      } catch (error) {
        log("task panel", error);
        return null;
      }
    },
  });
  // The keymap's layer needs the keymap's context, which a component has and `setup` has not: a slot over the whole app draws nothing and holds it.
  api.ui.slot({
    append: "app",
    render: () => {
      try {
        api.keymap.layer(() => ({
          mode: "global",
          commands: [
            {
              id: "opencode-rcm.menu",
              title: RCM_MENU_TITLE,
              group: "opencode-rcm",
              palette: true,
              // `arguments`: a typed `/rcm why` runs this with "why" (before any server command of that name).
              slash: { name: "rcm", arguments: true },
              run: (input) => void runRcm(api, scope, typeof input === "string" ? input : "").catch((error: unknown) => failed(api, log, error)),
            },
          ],
        }));
        void showProblems().catch((error: unknown) => log("options", error));
      } catch (error) {
        log("could not set up /rcm", error);
      }
      return null;
    },
  });
  const stopToasts = announceDecisions(api, scope, (error) => log("routing toasts", error));
  const stopMarker = recordScreen(api, scope, (error) => log("screen marker", error));
  // What `setup` returns, 2.0.15 runs when it unloads the plug-in.
  return async () => {
    stopToasts();
    await stopMarker();
  };
}

/** A failure after a dialog closed: in the log, and said on screen. */
function failed(api: TuiApi, log: (what: string, error: unknown) => void, error: unknown): void {
  log("/rcm", error);
  api.ui.toast.show({ variant: "error", title: "opencode-rcm", message: `/rcm failed: ${messageOf(error)}` });
}
