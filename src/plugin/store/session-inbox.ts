import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";
import { sessionStatePath } from "./state-dir.js";

/**
 * A change to a session's state asked for from outside the OpenCode server that owns it: the
 * TUI's /rcm and the `opencode-rcm` CLI run in other processes, and the server keeps the
 * session's state in memory and writes it back. So they never write the state file; they
 * drop an intent here, and the server applies it (in order, then deletes it) before its next
 * step for that session. Nothing is lost when OpenCode is not running: the intent waits.
 */
const MoveTargetSchema = z.discriminatedUnion("kind", [z.object({ kind: z.literal("task"), task: z.string().min(1) }), z.object({ kind: z.literal("new") })]);

/** A request to move, with its task when the user asked: one no longer there has moved since, and is left alone (applying twice changes nothing). */
const MovedRequestSchema = z.object({ messageID: z.string().min(1), from: z.string().min(1) });

const MoveIntentSchema = z.object({
  kind: z.literal("move"),
  /** The requests to move, in session order: one, several, or one and every later one. */
  requests: z.array(MovedRequestSchema).min(1),
  target: MoveTargetSchema,
});

/** `/rcm split`: the task goes on in a new OpenCode session, which the server (holding OpenCode's client) opens. */
const SplitIntentSchema = z.object({ kind: z.literal("split"), task: z.string().min(1) });

/** `/rcm resume`: an earlier session's unfinished task (`<session>/<task>`) goes on in this session. */
const ResumeIntentSchema = z.object({ kind: z.literal("resume"), key: z.string().regex(/^[A-Za-z0-9_-]+\/[^/\s]+$/, "must be <session>/<task>") });

export const SessionIntentSchema = z.preprocess(
  // An intent posted before several requests could move named one (`messageID`, `from`): read as a move of that one.
  (data) =>
    typeof data === "object" && data !== null && "messageID" in data && !("requests" in data)
      ? { ...data, requests: [{ messageID: data.messageID, from: (data as { from?: unknown }).from }] }
      : data,
  z.discriminatedUnion("kind", [
    MoveIntentSchema,
    z.object({ kind: z.literal("off") }),
    z.object({ kind: z.literal("on") }),
    SplitIntentSchema,
    ResumeIntentSchema,
  ]),
);
export type SessionIntent = z.output<typeof SessionIntentSchema>;

export interface PendingIntent {
  file: string;
  intent: SessionIntent;
}

/** `sessions/<id>.inbox/`, next to the session's state file. */
export function sessionInboxDir(stateDir: string, sessionID: string): string {
  return sessionStatePath(stateDir, sessionID).replace(/\.json$/, ".inbox");
}

/** Drops an intent, atomically (a temp file, then rename): the server never reads half of one. */
export async function postIntent(stateDir: string, sessionID: string, intent: SessionIntent): Promise<string> {
  const dir = sessionInboxDir(stateDir, sessionID);
  await mkdir(dir, { recursive: true });
  // The name orders intents by when they were posted; the random tail keeps two in one millisecond apart.
  const name = `${Date.now().toString().padStart(15, "0")}-${randomBytes(4).toString("hex")}.json`;
  const temp = join(dir, `.${name}.tmp`);
  await writeFile(temp, `${JSON.stringify(SessionIntentSchema.parse(intent))}\n`, "utf8");
  await rename(temp, join(dir, name));
  return join(dir, name);
}

/**
 * The session's waiting intents, oldest first. One that does not parse is skipped; with
 * `onBad` (the server, which applies them) it is reported and renamed `.bad`, never deleted.
 */
export async function pendingIntents(stateDir: string, sessionID: string, onBad?: (file: string, reason: string) => void): Promise<PendingIntent[]> {
  const dir = sessionInboxDir(stateDir, sessionID);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT") return [];
    throw error;
  }
  const pending: PendingIntent[] = [];
  for (const name of names.filter((entry) => /^\d+-[0-9a-f]+\.json$/.test(entry)).sort()) {
    const file = join(dir, name);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      continue; // taken by another reader meanwhile
    }
    const parsed = parseIntent(text);
    if (parsed.ok) pending.push({ file, intent: parsed.intent });
    else if (onBad) {
      onBad(file, parsed.reason);
      await rename(file, `${file}.bad`).catch(() => undefined);
    }
  }
  return pending;
}

/** The sessions that have an inbox folder (possibly empty). */
export async function sessionsWithInbox(stateDir: string): Promise<string[]> {
  const names = await readdir(join(stateDir, "sessions")).catch(() => [] as string[]);
  return names.filter((name) => /^[A-Za-z0-9_-]+\.inbox$/.test(name)).map((name) => name.slice(0, -".inbox".length));
}

/** The title of the toasts the TUI's /rcm sends through the server: seeing one, the server applies waiting intents at once. */
export const INTENT_TOAST_TITLE = "opencode-rcm";

/** Removes applied (or dropped) intents. */
export async function removeIntents(intents: readonly PendingIntent[]): Promise<void> {
  await Promise.all(intents.map((pending) => rm(pending.file, { force: true })));
}

/** Removes a deleted session's inbox, whatever waits in it. */
export async function removeInbox(stateDir: string, sessionID: string): Promise<void> {
  await rm(sessionInboxDir(stateDir, sessionID), { recursive: true, force: true });
}

function parseIntent(text: string): { ok: true; intent: SessionIntent } | { ok: false; reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON (${messageOf(error)})` };
  }
  const parsed = SessionIntentSchema.safeParse(data);
  if (parsed.success) return { ok: true, intent: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `${issue?.path.map(String).join(".") || "(top)"}: ${issue?.message ?? "invalid"}` };
}
