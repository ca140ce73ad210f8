import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { processIsAlive } from "./screen-markers.js";
import { versionedJsonFile } from "./versioned-json-file.js";

/**
 * `<stateDir>/live/<pid>.json`: the sessions an OpenCode server (a TUI runs one) routed
 * requests in lately, written by that server only. Another process of the same project
 * reads them: a session one of them is working in is not "earlier", and its tasks are
 * never resumed elsewhere (two TUIs never both go on with one task).
 */
const LiveSessionsSchema = z.object({
  pid: z.number().int().positive(),
  /** Session id to when it last routed a request (ISO). */
  sessions: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), z.iso.datetime()),
});

const LIVE_SESSIONS_VERSION = 1;
/** A session that routed nothing for this long is not in use, even in a process that still runs (a TUI left open overnight). */
export const IN_USE_MS = 30 * 60_000;

function liveSessionsFile(stateDir: string, pid: number) {
  return versionedJsonFile({
    path: join(stateDir, "live", `${pid}.json`),
    version: LIVE_SESSIONS_VERSION,
    schema: LiveSessionsSchema,
    empty: () => ({ pid, sessions: {} }),
  });
}

/** This process routed a request in `sessionID` at `at`: its file keeps only the sessions still in use. */
export async function noteSessionInUse(stateDir: string, sessionID: string, at: Date, pid = process.pid): Promise<void> {
  const file = liveSessionsFile(stateDir, pid);
  const read = await file.peek().catch(() => undefined);
  const known = read?.status === "loaded" ? read.value.sessions : {};
  const kept = Object.fromEntries(Object.entries(known).filter(([, when]) => at.getTime() - Date.parse(when) < IN_USE_MS));
  await file.save({ pid, sessions: { ...kept, [sessionID]: at.toISOString() } });
}

/**
 * Sessions another running process routed in within `IN_USE_MS`, with that process's pid. Not
 * another: this process, nor the one serving `asking` (the session a TUI part or the CLI asks
 * for, whose server may run in another process than they do, as OpenCode 2's TUI does).
 */
export async function sessionsInUseElsewhere(
  stateDir: string,
  now: Date,
  options: { pid?: number; isAlive?: (pid: number) => boolean; asking?: string | undefined } = {},
): Promise<Map<string, number>> {
  const own = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  let names: string[];
  try {
    names = await readdir(join(stateDir, "live"));
  } catch {
    return new Map();
  }
  const inUse = new Map<string, number>();
  for (const name of names.sort()) {
    const pid = /^\d+\.json$/.test(name) ? Number(name.slice(0, -".json".length)) : undefined;
    if (pid === undefined || pid === own || !isAlive(pid)) continue;
    const read = await liveSessionsFile(stateDir, pid)
      .peek()
      .catch(() => undefined);
    if (read?.status !== "loaded") continue;
    if (options.asking !== undefined && read.value.sessions[options.asking] !== undefined) continue;
    for (const [sessionID, when] of Object.entries(read.value.sessions)) if (now.getTime() - Date.parse(when) < IN_USE_MS) inUse.set(sessionID, pid);
  }
  return inUse;
}
