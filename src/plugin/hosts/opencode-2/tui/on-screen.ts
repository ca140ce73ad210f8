import type { TuiApi } from "./api.js";

/** The session the TUI shows, if it shows one. */
export function sessionOnScreen(api: TuiApi): string | undefined {
  const route = api.ui.router.current();
  const sessionID = route.type === "session" ? (route as { sessionID?: unknown }).sessionID : undefined;
  return typeof sessionID === "string" && sessionID !== "" ? sessionID : undefined;
}
