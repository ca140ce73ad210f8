import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { jsonlLines, parseJsonl } from "../jsonl/read-jsonl.js";

/** The gold label of a request meant for every task ("from now on run the tests with -q"). */
export const SHARED_LABEL = "*";

const LabelledRequestSchema = z
  .object({
    text: z.string().trim().min(1, "must be non-empty text"),
    /** Gold label; `*` for a shared instruction. */
    task: z.string().trim().min(1, "must be a non-empty label"),
    /** Paths the request's work touched: learned after the decision, as tool calls would be. */
    files: z.array(z.string().min(1)).optional(),
    /** Directory the request's work ran in. */
    workspace: z.string().min(1).optional(),
    /** How the request is written (`exact-file`, `reviewer-note`, `uncued-new`...): route-eval reports each style apart. */
    style: z.string().trim().min(1, "must be a non-empty style name").optional(),
    /** Where a real person's words come from: the thread (`https://github.com/owner/name/issues/123`) or its comment. */
    source: z.string().url("must be a URL").optional(),
  })
  .strict();

/**
 * `switch`: a checkout per task, its workspace path in every request (Switch-SWE);
 * `everyday`: one directory, switches signalled only by what the requests say.
 */
export const SESSION_SHAPES = ["switch", "everyday"] as const;
export type SessionShape = (typeof SESSION_SHAPES)[number];

/** A request of an earlier session: its words, its task's label and what its work touched. */
const EarlierRequestSchema = z
  .object({
    text: z.string().trim().min(1, "must be non-empty text"),
    task: z.string().trim().min(1, "must be a non-empty label"),
    files: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** An earlier OpenCode session of the same project, before the session whose requests are routed. */
const EarlierSessionSchema = z
  .object({
    /** Short id (`mon`): an earlier task's key is `<session>/<label>`. */
    session: z.string().trim().min(1, "must be a non-empty id"),
    /** The session title as OpenCode showed it. */
    title: z.string().trim().min(1, "must be a non-empty title"),
    /** How long before the routed session it was last worked in. */
    hoursAgo: z.number().min(0, "must be 0 or more"),
    requests: z.array(EarlierRequestSchema).min(1, "must list at least one request"),
    /** Labels of its tasks finished there: not candidates for resumption. */
    closed: z.array(z.string().trim().min(1)).optional(),
  })
  .strict();

export const LabelledSessionSchema = z
  .object({
    id: z.string().min(1),
    description: z.string().optional(),
    /** How the session's person writes (`plain`, `chat`, `terse`...): route-eval reports resumption per register. */
    register: z.string().trim().min(1, "must be a non-empty register name").optional(),
    /** Earlier sessions of the project, oldest first: their unfinished tasks may be resumed by this session's requests. */
    earlier: z.array(EarlierSessionSchema).min(1, "must list at least one earlier session").optional(),
    /** The public repository (`owner/name`) whose threads the session was written from. */
    repo: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name")
      .optional(),
    shape: z.enum(SESSION_SHAPES).optional(),
    /** Addresses of the issue, pull-request or review threads the requests paraphrase. */
    sources: z.array(z.string().url("must be a URL")).optional(),
    requests: z.array(LabelledRequestSchema).min(1, "must list at least one request"),
  })
  .strict();

export type LabelledRequest = z.infer<typeof LabelledRequestSchema>;
export type LabelledSession = z.infer<typeof LabelledSessionSchema>;

/** Bad input (code `labelled-sessions`), naming the file, the line and the field (in its `location`). */
function labelledSessionsError(file: string, line: number, field: string, problem: string): RcmError {
  return new RcmError("labelled-sessions", `${file}:${line}: ${field}: ${problem}`, { location: { file, line, field, problem } });
}

/** Parses a JSONL file of labelled sessions (one per line; blank lines skipped). */
export function parseLabelledSessions(file: string, text: string): LabelledSession[] {
  const sessions: LabelledSession[] = [];
  const ids = new Set<string>();
  for (const entry of parseJsonl(text)) {
    const line = entry.line;
    if (!entry.ok) throw labelledSessionsError(file, line, "(line)", `not JSON: ${entry.reason}`);
    const parsed = LabelledSessionSchema.safeParse(entry.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? issue.path.map(String).join(".") : "(session)";
      throw labelledSessionsError(file, line, field, issue?.message ?? "invalid");
    }
    const earlierProblem = earlierProblemOf(parsed.data);
    if (earlierProblem) throw labelledSessionsError(file, line, earlierProblem.field, earlierProblem.problem);
    if (ids.has(parsed.data.id)) throw labelledSessionsError(file, line, "id", `duplicate session id "${parsed.data.id}"`);
    ids.add(parsed.data.id);
    sessions.push(parsed.data);
  }
  if (sessions.length === 0) throw labelledSessionsError(file, 1, "(file)", "no sessions");
  return sessions;
}

/**
 * What the earlier sessions' labels break: a label names one task in one session (a label in
 * two earlier sessions would make "resumed the right task" ambiguous), session ids are unique,
 * and a closed label is a task of its session.
 */
function earlierProblemOf(session: LabelledSession): { field: string; problem: string } | undefined {
  const owner = new Map<string, string>();
  for (const [position, earlier] of (session.earlier ?? []).entries()) {
    if ((session.earlier ?? []).findIndex((other) => other.session === earlier.session) !== position)
      return { field: `earlier.${position}.session`, problem: `duplicate earlier session "${earlier.session}"` };
    for (const [at, request] of earlier.requests.entries()) {
      const first = owner.get(request.task);
      if (first !== undefined && first !== earlier.session)
        return { field: `earlier.${position}.requests.${at}.task`, problem: `label "${request.task}" is also a task of earlier session "${first}"` };
      owner.set(request.task, earlier.session);
    }
    for (const [at, label] of (earlier.closed ?? []).entries())
      if (!earlier.requests.some((request) => request.task === label))
        return { field: `earlier.${position}.closed.${at}`, problem: `"${label}" is no task of earlier session "${earlier.session}"` };
  }
  return undefined;
}

/** A session's shape as written, or as its texts show it: a workspace path in a request's text means `switch`. */
export function shapeOf(session: LabelledSession): SessionShape {
  if (session.shape) return session.shape;
  return session.requests.some((request) => request.workspace !== undefined && request.text.includes(request.workspace)) ? "switch" : "everyday";
}

/** Labelled sessions with the file each came from. */
export interface SessionsFile {
  file: string;
  sessions: LabelledSession[];
}

/**
 * Reads one JSONL file, or every `*.jsonl` file of a directory (a corpus split) in name
 * order. Session ids must be unique across all the files read.
 */
export async function readLabelledSessionFiles(path: string): Promise<SessionsFile[]> {
  const files = await jsonlFilesAt(path);
  const result: SessionsFile[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw labelledSessionsError(file, 0, "(file)", `cannot read: ${messageOf(error)}`);
    }
    const sessions = parseLabelledSessions(file, text);
    sessions.forEach((session) => {
      const other = seen.get(session.id);
      if (other !== undefined) throw labelledSessionsError(file, lineOf(text, session.id), "id", `session id "${session.id}" is also in ${other}`);
      seen.set(session.id, file);
    });
    result.push({ file, sessions });
  }
  return result;
}

export async function readLabelledSessions(path: string): Promise<LabelledSession[]> {
  return (await readLabelledSessionFiles(path)).flatMap((entry) => entry.sessions);
}

async function jsonlFilesAt(path: string): Promise<string[]> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    throw labelledSessionsError(path, 0, "(file)", `cannot read: ${messageOf(error)}`);
  }
  if (!isDirectory) return [path];
  const names = (await readdir(path)).filter((name) => name.endsWith(".jsonl")).sort();
  if (names.length === 0) throw labelledSessionsError(path, 0, "(directory)", "holds no *.jsonl files");
  return names.map((name) => join(path, name));
}

function lineOf(text: string, id: string): number {
  return jsonlLines(text).find((line) => line.text.includes(`"${id}"`))?.line ?? 0;
}
