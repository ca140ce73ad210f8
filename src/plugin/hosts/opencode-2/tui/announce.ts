import { requestToast } from "../../../session-views/toasts.js";
import { readSession, sessionStamp, type TuiScope } from "../../../store/locate-state.js";
import type { SessionState } from "../../../store/session-state-file.js";
import type { TuiApi } from "./api.js";
import { sessionOnScreen } from "./on-screen.js";

/** How often the session on screen's state is looked at (a stat; read only when it changed). */
const POLL_MS = 1000;
const TOAST_MS = 8000;

/**
 * The routing toasts OpenCode 1.18's server part shows (a new task, a switch, an unsure guess
 * that changed what the model gets, a task resumed from an earlier session or offered): 2.0.15 gives a server plug-in no toast, so the TUI part
 * shows them, from the decisions the server writes to the state of the session on screen. A
 * session's decisions from before it came on screen are no news. Returns the stop.
 */
export function announceDecisions(api: TuiApi, scope: () => Promise<TuiScope | undefined>, onError: (error: unknown) => void): () => void {
  /** Per session: its state's stamp and how many decisions had been seen. */
  const seen = new Map<string, { stamp: string; decisions: number }>();
  let running = false;
  const look = async (): Promise<void> => {
    const sessionID = sessionOnScreen(api);
    if (running || !sessionID) return;
    running = true;
    try {
      const located = await scope();
      if (!located?.stateDir) return;
      const known = seen.get(sessionID);
      const stamp = await sessionStamp(located.stateDir, sessionID);
      if (known?.stamp === stamp) return;
      const { state } = await readSession(located.stateDir, sessionID);
      const decisions = state?.ledger.order.length ?? 0;
      seen.set(sessionID, { stamp, decisions });
      if (!known || !state || located.options.notify !== "toast") return;
      for (let index = known.decisions; index < decisions; index += 1) announce(api, located, state, index, sessionID);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void look(), POLL_MS);
  void look();
  return () => clearInterval(timer);
}

function announce(api: TuiApi, scope: TuiScope, state: SessionState, index: number, sessionID: string): void {
  const { ledger } = state;
  const messageID = ledger.order[index] ?? "";
  const entry = ledger.decisions[messageID];
  const task = entry && ledger.tasks.find((known) => known.id === entry.task);
  if (!entry || !task) return;
  const previous = index > 0 ? ledger.decisions[ledger.order[index - 1] ?? ""]?.task : undefined;
  const { options } = scope;
  const kept = options.fallback === "candidates" ? entry.candidates : undefined;
  const toast = requestToast({
    entry,
    task,
    previous,
    threshold: options.confidenceThreshold,
    ledger,
    kept,
    moveCommand: "/rcm move",
    messageID,
    offer: state.resumeOffer,
  });
  if (toast) api.ui.toast.show({ ...toast, duration: TOAST_MS, sessionID });
}
