import type { TuiPluginApi } from "@opencode-ai/plugin/tui";
import { pruneDeadScreenMarkers, removeScreenMarker, type ScreenMarker, writeScreenMarker } from "../../../store/screen-markers.js";
import { sessionOnScreen } from "./session-on-screen.js";

/** How often the route is looked at: the TUI has no route-change event for plug-ins. */
const ROUTE_POLL_MS = 1000;

/**
 * Keeps this TUI's screen marker (`<stateDir>/screens/<pid>.json`) naming the session it shows,
 * so the CLI answers about that session even when another client (an `opencode run`, a second
 * TUI) wrote a session since. `activeAt` moves when the user opens the session or sends a
 * request in it. Never breaks the TUI: a failure is logged and the marker left as it was.
 */
export function recordScreen(options: { api: TuiPluginApi; stateDir: string | undefined; log: (what: string, error: unknown) => void }): void {
  const { api, stateDir, log } = options;
  if (!stateDir) return;
  const pid = process.pid;
  let shown: Omit<ScreenMarker, "pid"> | undefined;
  const requests = new Set<string>();
  let queue: Promise<void> = pruneDeadScreenMarkers(stateDir).catch((error: unknown) => log("screen markers", error));
  // One write at a time, each of the state as it is by then: a late write never brings back a removed marker.
  const sync = (): void => {
    queue = queue
      .then(async () => {
        if (shown === undefined) return removeScreenMarker(stateDir, pid);
        if (shown.title === undefined) shown.title = await titleOf(api, shown.sessionID);
        if (shown) await writeScreenMarker(stateDir, { ...shown, pid });
      })
      .catch((error: unknown) => log("screen marker", error));
  };
  const follow = (): void => {
    const sessionID = sessionOnScreen(api);
    if (sessionID === shown?.sessionID) return;
    requests.clear();
    shown = sessionID === undefined ? undefined : { sessionID, title: api.state.session.get(sessionID)?.title, activeAt: new Date().toISOString() };
    sync();
  };
  const timer = setInterval(follow, ROUTE_POLL_MS);
  timer.unref?.();
  const unsubscribe = [
    api.event.on("message.updated", ({ properties: { info } }) => {
      if (info.role !== "user" || info.sessionID !== shown?.sessionID || requests.has(info.id)) return;
      requests.add(info.id);
      shown.activeAt = new Date().toISOString();
      sync();
    }),
    api.event.on("session.updated", ({ properties: { info } }) => {
      if (info.id !== shown?.sessionID || info.title === shown.title) return;
      shown.title = info.title;
      sync();
    }),
  ];
  api.lifecycle.onDispose(async () => {
    clearInterval(timer);
    for (const off of unsubscribe) off();
    shown = undefined;
    sync();
    await queue;
  });
  follow();
}

/** The title as the TUI knows it, else as the server gives it; none when neither answers. */
async function titleOf(api: TuiPluginApi, sessionID: string): Promise<string | undefined> {
  const known = api.state.session.get(sessionID)?.title;
  if (known !== undefined) return known;
  const fetched = await api.client.session.get({ sessionID }).catch(() => undefined);
  return fetched?.data?.title;
}
