import { createSignal, onCleanup } from "solid-js";
import { type PanelLine, panelLines } from "../../../session-views/panel-lines.js";
import { readSession, sessionStamp, type TuiScope } from "../../../store/locate-state.js";
import type { TuiApi } from "./api.js";
import { drawLines } from "./draw.js";

/** Characters a panel line may take: 2.0.15's sidebar is about 40 columns wide. */
const PANEL_WIDTH = 36;
/** How often the panel looks at the state file (a stat; the file is read only when it changed). */
const POLL_MS = 1000;

/**
 * The sidebar's task panel for one session: redrawn whenever the server part writes the
 * session's state (each routed request, each turn's end, each change made with /rcm) or
 * something waits in its inbox. 2.0.15 gives a TUI plug-in no event for a state file, so it
 * polls (a stat a second). Any failure leaves the last lines shown.
 */
export function taskPanel(api: TuiApi, scope: () => Promise<TuiScope | undefined>, sessionID: string, onError: (error: unknown) => void): unknown {
  const linesFor = (located: TuiScope | undefined, snapshot: Partial<Parameters<typeof panelLines>[0]>): PanelLine[] =>
    located
      ? panelLines({
          settings: located.options,
          state: snapshot.state,
          pending: snapshot.pending ?? 0,
          problems: located.problems,
          width: PANEL_WIDTH,
          earlierUnfinished: snapshot.earlierUnfinished,
          earlierUnreadable: snapshot.earlierUnreadable,
        })
      : [];
  const [lines, setLines] = createSignal<PanelLine[]>([]);
  let seen = "";
  let running = false;
  const refresh = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const located = await scope();
      if (!located?.stateDir) return;
      const stamp = await sessionStamp(located.stateDir, sessionID);
      if (stamp === seen) return;
      const snapshot = await readSession(located.stateDir, sessionID, located.options.resume);
      seen = snapshot.stamp;
      setLines(linesFor(located, snapshot));
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void refresh(), POLL_MS);
  onCleanup(() => clearInterval(timer));
  void refresh();
  return drawLines(api, lines);
}
