import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";
import { parseJsonl } from "../../lab/jsonl/read-jsonl.js";
import { SESSION_SHAPES } from "../../lab/route-eval/labelled-sessions.js";

/**
 * The real-thread sets kept as references: `fixtures/<set>/references.jsonl` in the repository,
 * `<data dir>/<set>/sessions.jsonl` once materialised from the snapshots (build-thread-sessions).
 * The repository holds no words of the threads' authors, only where each request's text is and
 * how it was cut.
 */
export const THREAD_SETS = ["routing-threads", "routing-threads-dev"] as const;
export type ThreadSet = (typeof THREAD_SETS)[number];

/** Where materialised data sets are written and read when nothing else is said: `../rcm-data`, beside the checkout. */
export const DATA_DIR_VARIABLE = "OPENCODE_RCM_DATA";

/** The materialised data sets' directory: `OPENCODE_RCM_DATA` if set, else `rcm-data` beside the repository root. */
export function materialisedDataDir(root: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = env[DATA_DIR_VARIABLE];
  return given !== undefined && given !== "" ? given : join(root, "..", "rcm-data");
}

/** A set's references file in the repository. */
export function referencesFile(root: string, set: ThreadSet): string {
  return join(root, "fixtures", set, "references.jsonl");
}

/** A set's materialised sessions file. */
export function materialisedSessionsFile(dataDir: string, set: ThreadSet): string {
  return join(dataDir, set, "sessions.jsonl");
}

/**
 * How a snapshot lays out a thread:
 * - `rendered-markdown` (zaniebot/unmaintain-rendered): one Markdown file per thread, a YAML
 *   block, the title as a `# ` heading, then sections, each opened by a `---` line, a blank line
 *   and an italic header line (`_@author_`, `_Comment by @x on ..._`, `_Review comment by ..._`,
 *   events too), a blank line, then the section's body.
 * - `issues-api-json` (brson/rust-issue-archive): GitHub API JSON, the opening post in
 *   `NNNNNN-main.json` (`title`, `body`) and the comments in `NNNNNN-comments.json` (an array).
 */
const SNAPSHOT_FORMATS = ["rendered-markdown", "issues-api-json"] as const;

const SnapshotFileSchema = z
  .object({
    /** The snapshot's repository (`owner/name`), brought in with the `fetch` tool (`github:owner/name`). */
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name"),
    commit: z.string().regex(/^[0-9a-f]{40}$/, "must be a 40-hex commit"),
    /** The file holding the message, at that commit. */
    path: z.string().min(1),
    format: z.enum(SNAPSHOT_FORMATS),
  })
  .strict();

/** A kept run of body lines, `[from, to]` (1-based, inclusive), or `"blank"`: an empty line the trimming put in. */
const KeptLinesSchema = z.union([
  z.tuple([z.number().int().min(1), z.number().int().min(1)]).refine(([from, to]) => from <= to, "a line range must run forward ([from, to], from <= to)"),
  z.literal("blank"),
]);

/**
 * The trimming, as a recipe the builder replays: the text is the thread's title (when `title`),
 * then, after a blank line, the kept body lines in order, each without its trailing whitespace,
 * joined by newlines. A title with no kept lines is the title alone.
 */
const TrimSchema = z
  .object({
    title: z.boolean(),
    lines: z.array(KeptLinesSchema),
  })
  .strict();

const ThreadRequestReferenceSchema = z
  .object({
    /** 1-based place of the request in its session (route-eval's `session#n`). */
    position: z.number().int().min(1),
    /** Gold label: the thread (`issue-N` / `pr-N`). */
    task: z.string().min(1),
    /** `opening` for a thread's opening post, `comment` for a later message. */
    style: z.enum(["opening", "comment"]),
    /** Paths the thread itself names as touched (review comments' files). */
    files: z.array(z.string().min(1)).optional(),
    /** The thread's address. */
    source: z.string().url("must be a URL"),
    snapshot: SnapshotFileSchema,
    /**
     * Which message: 0 is the opening post; n >= 1 is, in `rendered-markdown`, the n-th section
     * after the opening post's (every section counts: comments, review comments, reviews,
     * events), and in `issues-api-json` the n-th entry of the comments array.
     */
    message: z.number().int().min(0),
    trim: TrimSchema,
    /** sha256 (hex) of the text the recipe gives, UTF-8. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be a hex sha256"),
  })
  .strict()
  .refine((request) => (request.style === "opening") === (request.message === 0), "an opening is message 0 and a comment is not")
  .refine((request) => request.style !== "comment" || !request.trim.title, "only an opening starts with the title");

const ThreadSessionReferenceSchema = z
  .object({
    id: z.string().min(1),
    description: z.string().optional(),
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name"),
    shape: z.enum(SESSION_SHAPES),
    sources: z.array(z.string().url("must be a URL")).min(1),
    requests: z.array(ThreadRequestReferenceSchema).min(1, "must list at least one request"),
  })
  .strict()
  .refine((session) => session.requests.every((request, index) => request.position === index + 1), "positions must run 1, 2, 3... in order");

export type SnapshotFile = z.infer<typeof SnapshotFileSchema>;
export type Trim = z.infer<typeof TrimSchema>;
export type ThreadRequestReference = z.infer<typeof ThreadRequestReferenceSchema>;
export type ThreadSessionReference = z.infer<typeof ThreadSessionReferenceSchema>;

/** Parses a references file (one session per line), naming the file, line and field of the first problem. */
export function parseThreadReferences(file: string, text: string): ThreadSessionReference[] {
  const sessions: ThreadSessionReference[] = [];
  const ids = new Set<string>();
  for (const entry of parseJsonl(text)) {
    if (!entry.ok) throw new Error(`${file}:${entry.line}: not JSON: ${entry.reason}`);
    const parsed = ThreadSessionReferenceSchema.safeParse(entry.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? issue.path.map(String).join(".") : "(session)";
      throw new Error(`${file}:${entry.line}: ${field}: ${issue?.message ?? "invalid"}`);
    }
    if (ids.has(parsed.data.id)) throw new Error(`${file}:${entry.line}: id: duplicate session id "${parsed.data.id}"`);
    ids.add(parsed.data.id);
    sessions.push(parsed.data);
  }
  if (sessions.length === 0) throw new Error(`${file}: no sessions`);
  return sessions;
}

export async function readThreadReferences(file: string): Promise<ThreadSessionReference[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`${file}: cannot read: ${messageOf(error)}`);
  }
  return parseThreadReferences(file, text);
}
