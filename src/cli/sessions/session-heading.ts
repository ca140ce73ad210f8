import { quoted } from "../../plugin/store/on-screen-session.js";
import type { FoundSession, SessionPick } from "../../plugin/store/stored-sessions.js";

/**
 * The first line of every answer about one session: its id, its title and why this one, so a
 * user who meant another session sees it before reading on.
 */
export function sessionHeading(session: FoundSession): string {
  const why = because(session.pick);
  return `Session ${session.sessionID} ${quoted(session.title)}${why ? ` (${why})` : ""}`;
}

function because(pick: SessionPick): string | undefined {
  switch (pick.how) {
    case "named":
      return undefined;
    case "latest":
      return "latest: the session opencode-rcm wrote last";
    case "on-screen":
      if (pick.picked) return "on screen in the TUI you picked";
      return pick.otherScreens > 0
        ? `on screen in the TUI used last; ${pick.otherScreens} other session${pick.otherScreens === 1 ? "" : "s"} on screen here`
        : "on screen in the TUI";
    case "no-screen":
      return pick.reason === "no-tui"
        ? "no TUI open here: the latest session opencode-rcm wrote"
        : "no TUI open here shows a session with opencode-rcm state: the latest one it wrote";
  }
}
