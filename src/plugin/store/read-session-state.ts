import { messageOf } from "../../kit/errors/message-of.js";
import { type SessionState, sessionStateFile } from "./session-state-file.js";

/** What a read-only reader found: the state, no file, or why the file cannot be used (the file is left where it is). */
export type SessionStateRead = { status: "loaded"; state: SessionState } | { status: "missing" } | { status: "unreadable"; file: string; reason: string };

/**
 * Reads one session's persisted state without changing anything on disk, for readers outside
 * the plug-in (the bench's metrics): unlike the plug-in's `load`, which moves an unreadable
 * file aside and starts afresh, an unreadable file is reported and stays where it is. Never
 * throws: a file that cannot even be opened is reported as unreadable too.
 */
export async function readSessionState(stateDir: string, sessionID: string): Promise<SessionStateRead> {
  let file: ReturnType<typeof sessionStateFile>;
  try {
    file = sessionStateFile(stateDir, sessionID);
  } catch (error) {
    return { status: "unreadable", file: stateDir, reason: messageOf(error) };
  }
  try {
    const read = await file.peek();
    if (read.status === "loaded") return { status: "loaded", state: read.value };
    if (read.status === "missing") return { status: "missing" };
    return { status: "unreadable", file: file.path, reason: read.reason };
  } catch (error) {
    return { status: "unreadable", file: file.path, reason: messageOf(error) };
  }
}
