import { readSession, sessionStamp, type TuiScope } from "../../../store/locate-state.js";
import { pruneDeadScreenMarkers, removeScreenMarker, type ScreenMarker, writeScreenMarker } from "../../../store/screen-markers.js";
import type { TuiApi } from "./api.js";
import { sessionOnScreen } from "./on-screen.js";

/** How often the route and the session's state are looked at: 2.0.15 gives a plug-in no route-change event. */
const POLL_MS = 1000;

/**
 * Keeps this TUI's screen marker (`<stateDir>/screens/<pid>.json`) naming the session it shows,
 * as 1.18's TUI part does, so the CLI answers about that session. `activeAt` moves when the
 * session comes on screen and when a request of it is routed. Returns the stop, which removes
 * the marker. A failure is logged and the marker left as it was.
 */
export function recordScreen(api: TuiApi, scope: () => Promise<TuiScope | undefined>, onError: (error: unknown) => void): () => Promise<void> {
  const pid = process.pid;
  let shown: (Omit<ScreenMarker, "pid"> & { stamp: string; requests: number }) | undefined;
  let stateDir: string | undefined;
  let queue: Promise<void> = Promise.resolve();
  let pruned = false;
  const look = async (): Promise<void> => {
    const located = await scope();
    if (!located?.stateDir) return;
    stateDir = located.stateDir;
    if (!pruned) {
      pruned = true;
      await pruneDeadScreenMarkers(stateDir);
    }
    const sessionID = sessionOnScreen(api);
    if (sessionID === undefined) {
      if (shown !== undefined) await removeScreenMarker(stateDir, pid);
      shown = undefined;
      return;
    }
    const stamp = await sessionStamp(stateDir, sessionID);
    const title = api.data.session.get(sessionID)?.title;
    if (sessionID === shown?.sessionID && stamp === shown.stamp && title === shown.title) return;
    const requests = (await readSession(stateDir, sessionID)).state?.ledger.order.length ?? 0;
    const active = sessionID !== shown?.sessionID || requests > shown.requests;
    shown = { sessionID, title, activeAt: active || !shown ? new Date().toISOString() : shown.activeAt, stamp, requests };
    await writeScreenMarker(stateDir, { sessionID, ...(title === undefined ? {} : { title }), activeAt: shown.activeAt, pid });
  };
  // One look at a time: a late write never brings back a removed marker.
  const timer = setInterval(() => {
    queue = queue.then(look).catch(onError);
  }, POLL_MS);
  return async () => {
    clearInterval(timer);
    await queue;
    if (stateDir) await removeScreenMarker(stateDir, pid).catch(onError);
  };
}
