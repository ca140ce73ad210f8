import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";

/**
 * The suite's identity: SHA-256 over every file under its directory (relative path and bytes,
 * in path order; `.git` folders apart), so a run directory can tell the suite it was made from
 * from an edited copy of it, wherever either lives.
 */
export async function suiteHash(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of await filesUnder(dir)) {
    const name = relative(dir, file).split(sep).join("/");
    const bytes = await readFile(file);
    hash.update(`${name}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => entry.name !== ".git")
      .map(async (entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return filesUnder(path);
        return entry.isFile() ? [path] : [];
      }),
  );
  return nested.flat().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
