import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { processIsAlive } from "./screen-markers.js";

/**
 * The TUI part's "I am here": an empty file `<stateDir>/tui-parts/<pid>` written when it loads.
 * OpenCode's TUI runs the server part in a worker of the same process, so the server part of a
 * TUI finds its own process id there when tui.json lists the package, and nothing when not.
 */
function markerPath(stateDir: string, pid: number): string {
  return join(stateDir, "tui-parts", String(pid));
}

/** Notes that this process's TUI has the TUI part; clears the notes of processes that are gone. */
export async function writeTuiPartMarker(stateDir: string, pid: number, isAlive: (pid: number) => boolean = processIsAlive): Promise<void> {
  const dir = join(stateDir, "tui-parts");
  await mkdir(dir, { recursive: true });
  await writeFile(markerPath(stateDir, pid), "");
  const names = await readdir(dir).catch(() => [] as string[]);
  const dead = names.filter((name) => /^\d+$/.test(name) && Number(name) !== pid && !isAlive(Number(name)));
  await Promise.all(dead.map((name) => rm(join(dir, name), { force: true }).catch(() => undefined)));
}

export async function removeTuiPartMarker(stateDir: string, pid: number): Promise<void> {
  await rm(markerPath(stateDir, pid), { force: true });
}

/** Whether the TUI part of process `pid` has said it is loaded. */
export async function hasTuiPart(stateDir: string, pid: number): Promise<boolean> {
  return (await stat(markerPath(stateDir, pid)).catch(() => undefined)) !== undefined;
}
