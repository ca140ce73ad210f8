import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";

/** What `load` found on disk. */
type LoadOutcome<T> =
  | { status: "loaded"; value: T }
  | { status: "missing"; value: T }
  /** The file could not be used: it was moved to `movedTo` and `value` is a fresh one. */
  | { status: "rebuilt"; value: T; movedTo: string; reason: string };

/** What `peek` found: the value, nothing, or why the file cannot be used (left where it is). */
type PeekOutcome<T> = { status: "loaded"; value: T } | { status: "missing" } | { status: "unreadable"; reason: string };

export interface VersionedJsonFile<T> {
  readonly path: string;
  load(): Promise<LoadOutcome<T>>;
  /** Reads without changing anything on disk: for readers in other processes (the TUI, the CLI). */
  peek(): Promise<PeekOutcome<T>>;
  save(value: T): Promise<void>;
}

/**
 * One JSON document on disk, stamped with a schema version. Writes are atomic (a temp file
 * in the same directory, then rename), so a crash leaves the old or the new file, never a
 * torn one. A file that does not parse, fails the schema or has another version is moved
 * aside (never deleted: nothing is lost) and replaced by `empty()`.
 */
export function versionedJsonFile<S extends z.ZodType>(options: {
  path: string;
  version: number;
  schema: S;
  empty: () => z.output<S>;
  /** Upgrades the data of an older version to the current shape, keyed by that version. */
  migrations?: Readonly<Record<number, (data: unknown) => unknown>>;
}): VersionedJsonFile<z.output<S>> {
  const { path, version, schema, empty, migrations = {} } = options;
  return {
    path,
    async load() {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if (isMissing(error)) return { status: "missing", value: empty() };
        throw error;
      }
      const read = readDocument(text, version, schema, migrations);
      if (read.ok) return { status: "loaded", value: read.value as z.output<S> };
      const reason = read.reason;
      const movedTo = `${path}.unreadable-${Date.now()}-${randomBytes(3).toString("hex")}`;
      await rename(path, movedTo);
      return { status: "rebuilt", value: empty(), movedTo, reason };
    },
    async peek() {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if (isMissing(error)) return { status: "missing" };
        throw error;
      }
      const read = readDocument(text, version, schema, migrations);
      return read.ok ? { status: "loaded", value: read.value as z.output<S> } : { status: "unreadable", reason: read.reason };
    },
    async save(value) {
      // Compact: it is written at every routed request and turn end, and read by programs.
      // Not parsed again: the value is typed, and the schema is enforced where files are read.
      // A parse per write cost the OpenCode server about 9% more CPU under load (zod in Bun).
      const text = `${JSON.stringify({ version, data: value })}\n`;
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(temp, text, "utf8");
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}

function readDocument(
  text: string,
  version: number,
  schema: z.ZodType,
  migrations: Readonly<Record<number, (data: unknown) => unknown>>,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON (${messageOf(error)})` };
  }
  if (typeof document !== "object" || document === null || !("version" in document) || !("data" in document)) {
    return { ok: false, reason: "not a versioned document (needs version and data)" };
  }
  let data = document.data;
  if (document.version !== version) {
    const migrate = typeof document.version === "number" ? migrations[document.version] : undefined;
    if (!migrate) return { ok: false, reason: `schema version ${JSON.stringify(document.version)}, expected ${version}` };
    data = migrate(data);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `data.${issue?.path.map(String).join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, value: parsed.data };
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
