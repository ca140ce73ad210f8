import type { TuiPluginApi } from "@opencode-ai/plugin/tui";

/** The session the TUI shows, if it shows one (its route is the session's). */
export function sessionOnScreen(api: TuiPluginApi): string | undefined {
  const route = api.route.current;
  const sessionID = route.name === "session" ? (route.params as { sessionID?: unknown } | undefined)?.sessionID : undefined;
  return typeof sessionID === "string" && sessionID !== "" ? sessionID : undefined;
}
