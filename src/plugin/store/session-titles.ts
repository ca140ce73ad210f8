import { join } from "node:path";
import { z } from "zod";
import { versionedJsonFile } from "./versioned-json-file.js";

/**
 * `<stateDir>/titles.json`: the sessions' titles as the server part last saw them, by session
 * id, so the CLI can name a session the way the TUI does. Kept apart from the session state
 * files, whose shape is the routing's and memory's.
 */
const SessionTitlesSchema = z.record(z.string().min(1), z.object({ title: z.string(), updatedAt: z.iso.datetime() }));
export type SessionTitles = z.infer<typeof SessionTitlesSchema>;

const SESSION_TITLES_VERSION = 1;
/** Titles of the most recently updated sessions only: the file is read whole at every change. */
const KEPT_TITLES = 200;

function sessionTitlesFile(stateDir: string) {
  return versionedJsonFile({ path: join(stateDir, "titles.json"), version: SESSION_TITLES_VERSION, schema: SessionTitlesSchema, empty: () => ({}) });
}

/** Every known title; none when the file is missing or unreadable (a title only makes an answer nicer). */
export async function readSessionTitles(stateDir: string): Promise<SessionTitles> {
  const read = await sessionTitlesFile(stateDir)
    .peek()
    .catch(() => undefined);
  return read?.status === "loaded" ? read.value : {};
}

/**
 * Notes one session's title. Read, merged and replaced at once: two OpenCode processes
 * writing at the same moment can lose one title, which that session's next update notes again.
 */
export async function noteSessionTitle(stateDir: string, note: { sessionID: string; title: string; at: Date }): Promise<void> {
  const titles = await readSessionTitles(stateDir);
  if (titles[note.sessionID]?.title === note.title) return;
  const merged = { ...titles, [note.sessionID]: { title: note.title, updatedAt: note.at.toISOString() } };
  const newest = Object.entries(merged)
    .sort(([, a], [, b]) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, KEPT_TITLES);
  await sessionTitlesFile(stateDir).save(Object.fromEntries(newest));
}
