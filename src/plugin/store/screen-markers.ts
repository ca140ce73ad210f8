import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { versionedJsonFile } from "./versioned-json-file.js";

/**
 * `<stateDir>/screens/<pid>.json`: the session a running TUI shows, written by the TUI part
 * (one file per TUI process, so two TUIs never write the same file) and read by the CLI,
 * which answers about that session rather than the one whose state was written last.
 */
const ScreenMarkerSchema = z.object({
  sessionID: z.string().regex(/^[A-Za-z0-9_-]+$/),
  /** The session's title as the TUI knows it, when it knows one. */
  title: z.string().optional(),
  /** When the user last opened the session or sent a request in it, in this TUI (ISO time). */
  activeAt: z.iso.datetime(),
  pid: z.number().int().positive(),
});
export type ScreenMarker = z.infer<typeof ScreenMarkerSchema>;

const SCREEN_MARKER_VERSION = 1;

function screensDir(stateDir: string): string {
  return join(stateDir, "screens");
}

function screenMarkerFile(stateDir: string, pid: number) {
  return versionedJsonFile({
    path: join(screensDir(stateDir), `${pid}.json`),
    version: SCREEN_MARKER_VERSION,
    schema: ScreenMarkerSchema,
    empty: () => ({ sessionID: "none", activeAt: new Date(0).toISOString(), pid }),
  });
}

/** Replaces the TUI's marker at once (temp file and rename): a reader sees the old one or the new one. */
export function writeScreenMarker(stateDir: string, marker: ScreenMarker): Promise<void> {
  return screenMarkerFile(stateDir, marker.pid).save(ScreenMarkerSchema.parse(marker));
}

export async function removeScreenMarker(stateDir: string, pid: number): Promise<void> {
  await rm(screenMarkerFile(stateDir, pid).path, { force: true });
}

/** Whether a process runs: a TUI killed without its dispose hook leaves its marker behind. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return typeof error === "object" && error !== null && "code" in error && error.code === "EPERM";
  }
}

/** The markers of running TUIs, the most recently active first; unreadable files and dead processes' markers are skipped. */
export async function liveScreenMarkers(stateDir: string, isAlive: (pid: number) => boolean = processIsAlive): Promise<ScreenMarker[]> {
  const markers = (await readMarkers(stateDir)).filter((marker) => isAlive(marker.pid));
  return markers.sort((a, b) => Date.parse(b.activeAt) - Date.parse(a.activeAt) || a.pid - b.pid);
}

/** Removes the markers of TUIs that are gone; a file that cannot be removed is left for the next time. */
export async function pruneDeadScreenMarkers(stateDir: string, isAlive: (pid: number) => boolean = processIsAlive): Promise<void> {
  const dead = (await readMarkers(stateDir)).filter((marker) => !isAlive(marker.pid));
  await Promise.all(dead.map((marker) => removeScreenMarker(stateDir, marker.pid).catch(() => undefined)));
}

async function readMarkers(stateDir: string): Promise<ScreenMarker[]> {
  let names: string[];
  try {
    names = await readdir(screensDir(stateDir));
  } catch {
    return [];
  }
  const pids = names.flatMap((name) => (/^\d+\.json$/.test(name) ? [Number(name.slice(0, -".json".length))] : []));
  const read = await Promise.all(
    pids.map((pid) =>
      screenMarkerFile(stateDir, pid)
        .peek()
        .catch(() => undefined),
    ),
  );
  // The file's name is the pid: a marker claiming another one is not to be trusted.
  return read.flatMap((outcome, index) => (outcome?.status === "loaded" && outcome.value.pid === pids[index] ? [outcome.value] : []));
}
