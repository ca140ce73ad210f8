import { createHash } from "node:crypto";
import type { LabelledRequest, LabelledSession } from "../../lab/route-eval/labelled-sessions.js";
import { type SnapshotMessage, type SnapshotReader, snapshotMessage } from "./snapshot-messages.js";
import type { ThreadRequestReference, ThreadSessionReference, Trim } from "./thread-references.js";

/** A reference that could not be materialised: names the session, the position and the source. */
class ThreadReferenceError extends Error {
  constructor(session: string, request: ThreadRequestReference, problem: string) {
    super(`${session}#${request.position} (${request.source}, ${request.snapshot.repo}:${request.snapshot.path} message ${request.message}): ${problem}`);
    this.name = "ThreadReferenceError";
  }
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The text a trimming recipe keeps of a message, or why it cannot (a line range past the body, a title the message lacks). */
export function trimmedText(message: SnapshotMessage, trim: Trim): string | { problem: string } {
  const kept: string[] = [];
  for (const entry of trim.lines) {
    if (entry === "blank") {
      kept.push("");
      continue;
    }
    const [from, to] = entry;
    if (to > message.lines.length) return { problem: `lines ${from}-${to} run past the body's ${message.lines.length} lines` };
    for (const line of message.lines.slice(from - 1, to)) kept.push(line.trimEnd());
  }
  const body = kept.join("\n");
  if (!trim.title) return body;
  if (message.title === undefined) return { problem: "the message has no title (only an opening post has)" };
  const title = message.title.trimEnd();
  return kept.length === 0 ? title : `${title}\n\n${body}`;
}

/** One request's text, read from its snapshot and checked against its sha256. */
async function materialiseRequest(session: string, request: ThreadRequestReference, reader: SnapshotReader): Promise<string> {
  let file: string;
  try {
    file = await reader.read(request.snapshot);
  } catch (error) {
    throw new ThreadReferenceError(session, request, error instanceof Error ? error.message : String(error));
  }
  const message = snapshotMessage(request.snapshot, file, request.message);
  if (typeof message === "string") throw new ThreadReferenceError(session, request, `message not found: ${message}`);
  const text = trimmedText(message, request.trim);
  if (typeof text !== "string") throw new ThreadReferenceError(session, request, text.problem);
  const digest = sha256Hex(text);
  if (digest !== request.sha256) {
    throw new ThreadReferenceError(
      session,
      request,
      `the trimmed text does not match: sha256 ${digest}, the reference says ${request.sha256} (another snapshot commit, or the wrong message)`,
    );
  }
  return text;
}

/** The labelled sessions the references describe, every text verified. Keys in the order the sets were first written in. */
export async function materialiseSessions(references: readonly ThreadSessionReference[], reader: SnapshotReader): Promise<LabelledSession[]> {
  const sessions: LabelledSession[] = [];
  for (const reference of references) {
    const requests: LabelledRequest[] = [];
    for (const request of reference.requests) {
      const text = await materialiseRequest(reference.id, request, reader);
      const labelled: LabelledRequest = { text, task: request.task, source: request.source, style: request.style };
      if (request.files !== undefined) labelled.files = request.files;
      requests.push(labelled);
    }
    sessions.push({
      id: reference.id,
      ...(reference.description === undefined ? {} : { description: reference.description }),
      repo: reference.repo,
      shape: reference.shape,
      sources: reference.sources,
      requests,
    });
  }
  return sessions;
}

/**
 * JSON with `", "` and `": "` between items, as the sets were first written (Python's
 * `json.dumps(..., ensure_ascii=False)`): strings as `JSON.stringify` writes them.
 */
export function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${spacedJson(item)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** A sessions.jsonl text: one session a line, each line ending in `\n`. */
export function sessionsJsonl(sessions: readonly LabelledSession[]): string {
  return sessions.map((session) => `${spacedJson(session)}\n`).join("");
}
