import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { materialiseSessions, sessionsJsonl } from "./materialise-thread-sessions.js";
import { SnapshotReader } from "./snapshot-messages.js";
import { materialisedSessionsFile, readThreadReferences, referencesFile, THREAD_SETS, type ThreadSet } from "./thread-references.js";

export interface BuiltThreadSet {
  set: ThreadSet;
  file: string;
  sessions: number;
  requests: number;
}

/**
 * Materialises every thread set from its references (`fixtures/<set>/references.jsonl`) and the
 * fetched snapshots (`gitDirs`: snapshot repository -> git directory) into
 * `<outDir>/<set>/sessions.jsonl`. Every text is checked against its sha256 before anything is
 * written; the first reference that fails stops the build, naming it.
 */
export async function buildThreadSets(options: { root: string; gitDirs: ReadonlyMap<string, string>; outDir: string }): Promise<BuiltThreadSet[]> {
  const reader = new SnapshotReader(options.gitDirs);
  const built: { set: ThreadSet; file: string; text: string; sessions: number; requests: number }[] = [];
  for (const set of THREAD_SETS) {
    const sessions = await materialiseSessions(await readThreadReferences(referencesFile(options.root, set)), reader);
    built.push({
      set,
      file: materialisedSessionsFile(options.outDir, set),
      text: sessionsJsonl(sessions),
      sessions: sessions.length,
      requests: sessions.reduce((sum, session) => sum + session.requests.length, 0),
    });
  }
  for (const { file, text } of built) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return built.map(({ set, file, sessions, requests }) => ({ set, file, sessions, requests }));
}

/** `owner/name=<git dir>` arguments as a map, or a usage problem. */
export function parseSnapshotArguments(values: readonly string[]): Map<string, string> {
  const gitDirs = new Map<string, string>();
  for (const value of values) {
    const match = /^([\w.-]+\/[\w.-]+)=(.+)$/.exec(value);
    if (match === null) throw new Error(`--snapshot ${value}: expected owner/name=<git dir>`);
    const [, repo, dir] = match as unknown as [string, string, string];
    if (gitDirs.has(repo)) throw new Error(`--snapshot ${repo} given twice`);
    gitDirs.set(repo, dir);
  }
  return gitDirs;
}
