import { execFile } from "node:child_process";
import { posix } from "node:path";
import { promisify } from "node:util";
import { messageOf } from "../../kit/errors/message-of.js";
import type { SnapshotFile } from "./thread-references.js";

const run = promisify(execFile);

/** One message of a thread as a snapshot holds it: its body's lines (split at `\n`), and the thread's title for an opening. */
export interface SnapshotMessage {
  title?: string;
  lines: string[];
}

/**
 * Reads files out of fetched snapshots (bare git directories, one per snapshot repository) with
 * `git --git-dir=<dir> show <commit>:<path>`, each file once.
 */
export class SnapshotReader {
  readonly #gitDirs: ReadonlyMap<string, string>;
  readonly #files = new Map<string, Promise<string>>();

  constructor(gitDirs: ReadonlyMap<string, string>) {
    this.#gitDirs = gitDirs;
  }

  /**
   * The thread's text; throws naming the snapshot, the commit and the path. A `rendered-markdown`
   * path is the thread's `N.md` link file, which holds only the name of the rendered file beside
   * it (a thread renamed on GitHub was rendered twice; the link names the current one).
   */
  async read(file: SnapshotFile): Promise<string> {
    if (file.format !== "rendered-markdown") return this.#cached(file.commit, file.repo, file.path);
    const link = (await this.#cached(file.commit, file.repo, file.path)).trim();
    if (link === "" || link.includes("/") || link.includes("\n") || !link.endsWith(".md")) {
      throw new Error(`${file.path} at ${file.commit} (${file.repo}) is not a link to a rendered thread (it should hold a file name)`);
    }
    return this.#cached(file.commit, file.repo, posix.join(posix.dirname(file.path), link));
  }

  #cached(commit: string, repo: string, path: string): Promise<string> {
    const key = `${repo}@${commit}:${path}`;
    let text = this.#files.get(key);
    if (text === undefined) {
      text = this.#show({ repo, commit, path });
      this.#files.set(key, text);
    }
    return text;
  }

  async #show(file: { repo: string; commit: string; path: string }): Promise<string> {
    const gitDir = this.#gitDirs.get(file.repo);
    if (gitDir === undefined) throw new Error(`no snapshot of ${file.repo} given (--snapshot ${file.repo}=<git dir>; fetch github:${file.repo})`);
    try {
      const { stdout } = await run("git", [`--git-dir=${gitDir}`, "show", `${file.commit}:${file.path}`], { maxBuffer: 256 * 1024 * 1024, encoding: "utf8" });
      return stdout;
    } catch (error) {
      throw new Error(`cannot read ${file.path} at ${file.commit} in ${gitDir} (${file.repo}): ${messageOf(error).split("\n")[0]}`);
    }
  }
}

/** The message `index` of a snapshot file (0: the opening post), or a reason it is not there. */
export function snapshotMessage(file: SnapshotFile, text: string, index: number): SnapshotMessage | string {
  return file.format === "rendered-markdown" ? renderedMessage(text, index) : apiJsonMessage(file.path, text, index);
}

/** An italic header line opening a section of a rendered thread: `_@author_`, `_Comment by @x on ..._`... */
const SECTION_HEADER = /^_.*_$/;

/**
 * A thread rendered as Markdown: a YAML block, the title as the first `# ` heading after it,
 * then sections, each `---`, a blank line, an italic header line, a blank line and the body,
 * up to the next section's `---` (or the end of the file).
 */
function renderedMessage(text: string, index: number): SnapshotMessage | string {
  const lines = text.split("\n");
  const yamlEnd = lines[0] === "```yaml" ? lines.indexOf("```", 1) : -1;
  if (yamlEnd < 0) return "not a rendered thread (no YAML block first)";
  const headingAt = lines.findIndex((line, at) => at > yamlEnd && line.startsWith("# "));
  if (headingAt < 0) return "no `# ` title heading after the YAML block";
  const starts: number[] = [];
  for (let at = headingAt + 1; at + 2 < lines.length; at++) {
    if (lines[at] === "---" && lines[at + 1] === "" && SECTION_HEADER.test(lines[at + 2] ?? "")) starts.push(at);
  }
  const start = starts[index];
  if (start === undefined) return `the thread has ${starts.length} sections (0 to ${starts.length - 1}), not ${index}`;
  const end = starts[index + 1] ?? lines.length;
  const body = lines.slice(start + 4, end);
  if (start + 3 < end && lines[start + 3] !== "") return `section ${index}'s header is not followed by a blank line`;
  const message: SnapshotMessage = { lines: body };
  if (index === 0) message.title = (lines[headingAt] ?? "").slice(2);
  return message;
}

const ApiBody = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined;
  const body = (value as { body?: unknown }).body;
  return typeof body === "string" ? body : body === null ? "" : undefined;
};

/** GitHub API JSON: the opening post in `*-main.json` (`title`, `body`), comment n the n-th entry of `*-comments.json`. Line ends `\r\n` read as `\n`. */
function apiJsonMessage(path: string, text: string, index: number): SnapshotMessage | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${messageOf(error)}`;
  }
  const split = (body: string) => body.replace(/\r\n/g, "\n").split("\n");
  if (index === 0) {
    if (!path.endsWith("-main.json")) return "an opening post is read from a *-main.json file";
    const title = (value as { title?: unknown }).title;
    const body = ApiBody(value);
    if (typeof title !== "string" || body === undefined) return "no string `title` and `body`";
    return { title, lines: split(body) };
  }
  if (!path.endsWith("-comments.json")) return "a comment is read from a *-comments.json file";
  if (!Array.isArray(value)) return "not an array of comments";
  const body = ApiBody(value[index - 1]);
  if (body === undefined) return `the thread has ${value.length} comments (1 to ${value.length}), not ${index}`;
  return { lines: split(body) };
}
