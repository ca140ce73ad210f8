import { homedir } from "node:os";
import type { TuiPlugin, TuiPluginApi, TuiPluginModule } from "@opencode-ai/plugin/tui";
import { messageOf } from "../../../../kit/errors/message-of.js";
import { packageRoot } from "../../../../kit/package-root.js";
import { problemsToastMessage, problemsToastTitle, TOAST_TEXT_WIDTH } from "../../../session-views/config-problems.js";
import { RCM_MENU_TITLE } from "../../../session-views/rcm-verbs.js";
import { locateState, type TuiScope } from "../../../store/locate-state.js";
import { removeTuiPartMarker, writeTuiPartMarker } from "../../../store/tui-part-marker.js";
import { TYPED_VERB_COMMAND } from "../../../store/typed-verb-file.js";
import { openRcmMenu, runTypedFromServer } from "./rcm-menu.js";
import { recordScreen } from "./screen-marker.js";
import { taskPanel } from "./task-panel.js";

/** After the built-in context section (100), before MCP (200). */
const PANEL_ORDER = 150;

/**
 * The TUI part (listed in tui.json): the sidebar's task panel, `/rcm` run inside the TUI,
 * and the options' problems on screen. It reads what the server part writes and never
 * breaks the TUI: a failure is logged (OpenCode's log) and the TUI goes on without it.
 */
const tui: TuiPlugin = async (api) => {
  const log = (message: string, error?: unknown): void => {
    const detail = error === undefined ? "" : `: ${messageOf(error)}`;
    void api.client.app.log({ service: "opencode-rcm", level: "warn", message: `tui: ${message}${detail}` }).catch(() => undefined);
  };
  let scope: TuiScope;
  try {
    const { directory, worktree } = api.state.path;
    scope = await locateState({
      directory,
      worktree,
      plugins: api.state.config.plugin,
      packageDir: packageRoot(),
      env: process.env,
      home: homedir(),
      projectID: async () => (await api.client.project.current({ directory })).data?.id,
    });
  } catch (error) {
    log("could not read the options; no task panel or /rcm in this TUI", error);
    return;
  }
  // Says to the server part (in this process's worker) that the TUI part is loaded: without it, the server tells the user why there is no panel.
  const { stateDir } = scope;
  if (stateDir) {
    void writeTuiPartMarker(stateDir, process.pid).catch((error: unknown) => log("could not note the TUI part for the server part", error));
    api.lifecycle.onDispose(() => removeTuiPartMarker(stateDir, process.pid).catch(() => undefined));
  }
  try {
    recordScreen({ api, stateDir: scope.stateDir, log });
    showProblems(api, scope.problems);
    api.slots.register({
      order: PANEL_ORDER,
      slots: {
        // Runs at render time, outside this set-up: a failure leaves the sidebar without the panel, never breaks it.
        sidebar_content: (_context: unknown, props: { session_id: string }) => {
          try {
            return taskPanel(api, scope, props, (error) => log("task panel", error));
          } catch (error) {
            log("task panel", error);
            return null;
          }
        },
      },
    });
    const onError = (what: string, error: unknown) => log(what, error);
    registerRcmCommand(api, {
      menu: () => void openRcmMenu(api, scope, onError).catch((error: unknown) => log("/rcm", error)),
      // `/rcm <words>` typed and sent: the server leaves the words and runs this command (typed-verb-file.ts).
      typed: () => void runTypedFromServer(api, scope, onError).catch((error: unknown) => log("/rcm (typed)", error)),
    });
  } catch (error) {
    log("could not set up the task panel or /rcm", error);
  }
};

/**
 * `/rcm` as a command of the TUI itself (in the palette too), and the hidden command the server
 * runs for a typed `/rcm <words>`: 1.18's command layer, or the older `api.command` where that is all there is.
 */
function registerRcmCommand(api: TuiPluginApi, run: { menu: () => void; typed: () => void }): void {
  const title = RCM_MENU_TITLE;
  const typedTitle = "opencode-rcm: a typed /rcm";
  if (typeof api.keymap?.registerLayer === "function") {
    api.keymap.registerLayer({
      commands: [
        { namespace: "palette", name: "rcm.menu", title, category: "opencode-rcm", slashName: "rcm", run: run.menu },
        { namespace: "palette", name: TYPED_VERB_COMMAND, title: typedTitle, category: "opencode-rcm", hidden: true, run: run.typed },
      ],
      bindings: [],
    });
  } else {
    api.command?.register(() => [
      { title, value: "rcm.menu", category: "opencode-rcm", slash: { name: "rcm" }, onSelect: run.menu },
      { title: typedTitle, value: TYPED_VERB_COMMAND, category: "opencode-rcm", hidden: true, onSelect: run.typed },
    ]);
  }
}

/** The options' problems, now that the TUI is up to show them (the server part's start-up toast comes too early for it); the panel has one line. */
function showProblems(api: TuiPluginApi, problems: readonly string[]): void {
  if (problems.length === 0) return;
  api.ui.toast({
    variant: "warning",
    title: problemsToastTitle(problems.length),
    message: problemsToastMessage({ problems, width: TOAST_TEXT_WIDTH }),
    duration: 10_000,
  });
}

const plugin: TuiPluginModule & { id: string } = { id: "opencode-rcm", tui };
export default plugin;
