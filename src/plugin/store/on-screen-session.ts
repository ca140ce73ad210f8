import { RcmError } from "../../kit/errors/rcm-error.js";
import type { ScreenMarker } from "./screen-markers.js";

/** Two TUIs active this close together are "at the same time": which one the user means is not guessed. */
const SAME_TIME_MS = 2000;

/** A session on screen in a running TUI, as offered to the user to pick from. */
export interface ScreenCandidate {
  sessionID: string;
  title: string | undefined;
  activeAt: string;
  pid: number;
}

/** Asks the user which of `candidates` they mean; resolves with its index. */
export type SessionChooser = (candidates: readonly ScreenCandidate[]) => Promise<number>;

export type OnScreen = { kind: "found"; marker: ScreenMarker; picked: boolean; otherScreens: number } | { kind: "none"; reason: "no-tui" | "no-state" };

/**
 * The session the user most likely means: the one on screen in the TUI they used last, among
 * sessions with state (`hasState`). TUIs active at the same time on different sessions are
 * offered to `choose`; with no way to ask, the error lists them.
 */
export async function onScreenSession(options: {
  markers: readonly ScreenMarker[];
  hasState: (sessionID: string) => boolean;
  choose: SessionChooser | undefined;
}): Promise<OnScreen> {
  if (options.markers.length === 0) return { kind: "none", reason: "no-tui" };
  const usable = options.markers.filter((marker) => options.hasState(marker.sessionID)).sort((a, b) => Date.parse(b.activeAt) - Date.parse(a.activeAt));
  const newest = usable[0];
  if (newest === undefined) return { kind: "none", reason: "no-state" };
  const otherScreens = new Set(usable.map((marker) => marker.sessionID)).size - 1;
  const tied = usable.filter(
    (marker, index) =>
      Date.parse(newest.activeAt) - Date.parse(marker.activeAt) <= SAME_TIME_MS && usable.findIndex((other) => other.sessionID === marker.sessionID) === index,
  );
  if (tied.length === 1) return { kind: "found", marker: newest, picked: false, otherScreens };
  const candidates = tied.map(({ sessionID, title, activeAt, pid }) => ({ sessionID, title, activeAt, pid }));
  if (!options.choose) {
    const listed = candidates
      .map((candidate) => `${candidate.sessionID} ${quoted(candidate.title)} (TUI pid ${candidate.pid}, active ${candidate.activeAt})`)
      .join("; ");
    throw new RcmError(
      "session",
      `${candidates.length} TUIs open here were used within ${SAME_TIME_MS / 1000} s of each other, on different sessions: ${listed}; pass the session id (or latest)`,
    );
  }
  const index = await options.choose(candidates);
  const marker = tied[index];
  if (marker === undefined) throw new RcmError("session", `no session number ${index + 1} among the ${tied.length} on screen`);
  return { kind: "found", marker, picked: true, otherScreens };
}

/** A title as the answers show it. */
export function quoted(title: string | undefined): string {
  return title === undefined || title.trim() === "" ? "(untitled)" : JSON.stringify(title);
}
