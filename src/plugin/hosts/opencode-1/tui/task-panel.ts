import type { TuiPluginApi } from "@opencode-ai/plugin/tui";
import { createSignal, onCleanup } from "solid-js";
import { type PanelLine, panelLines } from "../../../session-views/panel-lines.js";
import type { TuiScope } from "../../../store/locate-state.js";
import { readSession, sessionStamp } from "../../../store/locate-state.js";
import { drawLines } from "./draw.js";

/** Characters a panel line may take: the sidebar is about 40 columns wide. */
const PANEL_WIDTH = 36;
/** How often the panel looks at the state file (a stat; the file is read only when it changed). */
const POLL_MS = 1000;

/**
 * The sidebar's task panel for one session: redrawn whenever the server part writes the
 * session's state (each routed request, each turn's end) or something waits in its inbox;
 * events make it prompt, the poll makes it sure. Any failure leaves the last lines shown.
 */
export function taskPanel(api: TuiPluginApi, scope: TuiScope, props: { session_id: string }, onError: (error: unknown) => void): unknown {
  const settings = scope.options;
  const linesFor = (snapshot: Partial<Parameters<typeof panelLines>[0]>): PanelLine[] =>
    panelLines({
      settings,
      state: snapshot.state,
      pending: snapshot.pending ?? 0,
      problems: scope.problems,
      width: PANEL_WIDTH,
      earlierUnfinished: snapshot.earlierUnfinished,
      earlierUnreadable: snapshot.earlierUnreadable,
    });
  const [lines, setLines] = createSignal<PanelLine[]>(linesFor({}));
  let seen = "";
  let running = false;
  const refresh = async (): Promise<void> => {
    const { stateDir } = scope;
    if (!stateDir || running) return;
    running = true;
    try {
      const sessionID = props.session_id;
      const stamp = `${sessionID}:${await sessionStamp(stateDir, sessionID)}`;
      if (stamp === seen) return;
      const snapshot = await readSession(stateDir, sessionID, settings.resume);
      seen = `${sessionID}:${snapshot.stamp}`;
      setLines(linesFor(snapshot));
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void refresh(), POLL_MS);
  const unsubscribe = [
    api.event.on("session.idle", () => void refresh()),
    api.event.on("session.status", () => void refresh()),
    api.event.on("tui.toast.show", () => void refresh()),
  ];
  onCleanup(() => {
    clearInterval(timer);
    for (const off of unsubscribe) off();
  });
  void refresh();
  return drawLines(api, lines);
}
