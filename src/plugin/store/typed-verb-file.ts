import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { sessionStatePath } from "./state-dir.js";

/**
 * A typed `/rcm <words>` on its way from the server to the TUI part. The server gets the
 * typed text (OpenCode sends it to the server command of that name) but cannot draw; the TUI
 * can, but only learns of it through a named command with no words. So the server leaves the
 * words here and dispatches the command; the TUI takes them for the session on screen.
 */
export const TYPED_VERB_COMMAND = "opencode-rcm.typed";

function typedVerbPath(stateDir: string, sessionID: string): string {
  return sessionStatePath(stateDir, sessionID).replace(/\.json$/, ".typed");
}

/** Leaves the words for the TUI (atomically: a temp file, then rename). */
export async function leaveTypedVerb(stateDir: string, sessionID: string, words: string): Promise<void> {
  const path = typedVerbPath(stateDir, sessionID);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.tmp`, words, "utf8");
  await rename(`${path}.tmp`, path);
}

/** The words left for this session, removed as they are taken; undefined when none wait. */
export async function takeTypedVerb(stateDir: string, sessionID: string): Promise<string | undefined> {
  const path = typedVerbPath(stateDir, sessionID);
  const words = await readFile(path, "utf8").catch(() => undefined);
  if (words !== undefined) await rm(path, { force: true });
  return words;
}
