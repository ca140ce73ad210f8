import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fittingSessions } from "../../src/dev/fit/fitting-sessions.js";
import { buildThreadSets, parseSnapshotArguments } from "../../src/dev/thread-sessions/build-thread-sets.js";
import { materialiseSessions, sessionsJsonl, sha256Hex, spacedJson, trimmedText } from "../../src/dev/thread-sessions/materialise-thread-sessions.js";
import { SnapshotReader } from "../../src/dev/thread-sessions/snapshot-messages.js";
import {
  materialisedDataDir,
  parseThreadReferences,
  readThreadReferences,
  referencesFile,
  THREAD_SETS,
  type ThreadRequestReference,
  type ThreadSessionReference,
} from "../../src/dev/thread-sessions/thread-references.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { parseLabelledSessions } from "../../src/lab/route-eval/labelled-sessions.js";
import { makeTempDir } from "../support/temp-dir.js";

// Every thread below is made up for this test: no text of a real thread is in the repository.
const RENDERED = [
  "```yaml",
  "number: 7",
  'title: "Widgets wobble on resize"',
  "type: issue",
  "```",
  "",
  "# Widgets wobble on resize ",
  "",
  "---",
  "",
  "_@alice_",
  "",
  "### Version",
  "",
  "1.2.3",
  "",
  "When the window is resized the widgets wobble.   ",
  "![screenshot](https://example.invalid/shot.png)",
  "",
  "It happens on every platform.\r",
  "",
  "---",
  "",
  "_Comment by @bob on 2024-01-02 10:00_",
  "",
  "> When the window is resized",
  "",
  "Can you share the `layout.toml`?",
  "",
  "---",
  "",
  "_Label `bug` added by @bob on 2024-01-02 10:01_",
  "",
  "---",
  "",
  "_Review comment by @carol on `src/layout.rs`:12 on 2024-01-03 09:00_",
  "",
  "This clamps twice; once is enough — see below:",
  "```rust",
  "let w = clamp(w);",
  "```",
  "",
  "---",
  "",
].join("\n");

const API_MAIN = JSON.stringify({ title: "Sprockets leak", body: "Every sprocket leaks.\r\nSteps:\r\n\r\n    spin()\r\n" });
const API_COMMENTS = JSON.stringify([{ body: "Fixed on main." }, { body: null }, { body: "Still leaks with `spin --fast`.\r\nAttaching a log." }]);

const COMMIT_PLACEHOLDER = "0".repeat(40);

function request(
  partial: Partial<ThreadRequestReference> & Pick<ThreadRequestReference, "position" | "snapshot" | "message" | "trim">,
): ThreadRequestReference {
  return {
    task: "issue-7",
    style: partial.message === 0 ? "opening" : "comment",
    source: "https://github.com/example/widgets/issues/7",
    sha256: "",
    ...partial,
  };
}

describe("the committed thread references", () => {
  it("parse, hold no text, and count what the READMEs say", async () => {
    const counts: Record<string, [number, number]> = {};
    for (const set of THREAD_SETS) {
      const file = referencesFile(packageRoot(), set);
      const sessions = await readThreadReferences(file);
      counts[set] = [sessions.length, sessions.reduce((sum, session) => sum + session.requests.length, 0)];
      const raw = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
      for (const line of raw) expect(Object.keys(JSON.parse(line) as object)).not.toContain("text");
      const snapshots = new Set(sessions.flatMap((session) => session.requests.map((request) => `${request.snapshot.repo}@${request.snapshot.commit}`)));
      expect([...snapshots].sort()).toEqual(
        set === "routing-threads"
          ? ["zaniebot/unmaintain-rendered@6cc16f3c960005c82d1919c3672071126afa1b07"]
          : ["brson/rust-issue-archive@ea867f0669e90a93b114a63c0cae9f2cac42df69", "zaniebot/unmaintain-rendered@6cc16f3c960005c82d1919c3672071126afa1b07"],
      );
      const readme = await readFile(join(packageRoot(), "fixtures", set, "README.md"), "utf8");
      expect(readme).toContain(`${counts[set]?.[0]} sessions`);
      expect(readme).toContain(`${counts[set]?.[1]} requests`);
    }
    expect(counts).toEqual({ "routing-threads": [20, 330], "routing-threads-dev": [14, 218] });
  });

  it("reject a reference whose positions skip or whose opening is not message 0", () => {
    const session = (requests: unknown[]) => JSON.stringify({ id: "s", repo: "a/b", shape: "everyday", sources: ["https://example.invalid/1"], requests });
    const snapshot = { repo: "a/b", commit: COMMIT_PLACEHOLDER, path: "x.md", format: "rendered-markdown" };
    const base = {
      task: "t",
      style: "opening",
      source: "https://example.invalid/1",
      snapshot,
      message: 0,
      trim: { title: true, lines: [] },
      sha256: "a".repeat(64),
    };
    expect(() => parseThreadReferences("refs.jsonl", session([{ ...base, position: 2 }]))).toThrow(/refs\.jsonl:1: .*positions must run/);
    expect(() => parseThreadReferences("refs.jsonl", session([{ ...base, position: 1, message: 3 }]))).toThrow(/refs\.jsonl:1: .*opening is message 0/);
    expect(() => parseThreadReferences("refs.jsonl", session([{ ...base, position: 1, text: "words" }]))).toThrow(/refs\.jsonl:1: /);
    expect(() => parseThreadReferences("refs.jsonl", session([{ ...base, position: 1, trim: { title: true, lines: [[3, 2]] } }]))).toThrow(/run forward/);
  });
});

describe("materialising thread sessions from a snapshot", () => {
  let dir: { path: string; remove: () => Promise<void> };
  let commit: string;
  let reader: SnapshotReader;
  const rendered = () => ({ repo: "example/rendered", commit, path: "example/widgets/issues/7.md", format: "rendered-markdown" as const });
  const api = (path: string) => ({ repo: "example/api-archive", commit, path, format: "issues-api-json" as const });

  beforeAll(async () => {
    dir = await makeTempDir("rcm-thread-sessions");
    // One repository serves as both snapshots: each reference names its repository, the reader maps both to it.
    commit = await createGitRepo(join(dir.path, "snapshot"), {
      "example/widgets/issues/7.md": "7-widgets-wobble-on-resize.md",
      "example/widgets/issues/7-widgets-wobble-on-resize.md": RENDERED,
      "items/000042-main.json": API_MAIN,
      "items/000042-comments.json": API_COMMENTS,
    });
    const gitDir = join(dir.path, "snapshot", ".git");
    reader = new SnapshotReader(parseSnapshotArguments([`example/rendered=${gitDir}`, `example/api-archive=${gitDir}`]));
  });
  afterAll(async () => dir.remove());

  async function materialise(requests: ThreadRequestReference[]) {
    const session: ThreadSessionReference = {
      id: "made-up-1",
      repo: "example/widgets",
      shape: "everyday",
      sources: ["https://github.com/example/widgets/issues/7"],
      requests,
    };
    return materialiseSessions([session], reader);
  }

  it("replays the kept line ranges, the title and inserted blank lines, trimming each line's end", async () => {
    const opening = "Widgets wobble on resize\n\nWhen the window is resized the widgets wobble.\n\nIt happens on every platform.";
    const comment = "Can you share the `layout.toml`?";
    const review = "This clamps twice; once is enough — see below:\n\n```rust\nlet w = clamp(w);\n```";
    const sessions = await materialise([
      request({
        position: 1,
        snapshot: rendered(),
        message: 0,
        trim: {
          title: true,
          lines: [
            [5, 5],
            [7, 8],
          ],
        },
        sha256: sha256Hex(opening),
      }),
      request({ position: 2, snapshot: rendered(), message: 1, trim: { title: false, lines: [[3, 3]] }, sha256: sha256Hex(comment) }),
      request({
        position: 3,
        snapshot: rendered(),
        message: 3,
        trim: { title: false, lines: [[1, 1], "blank", [2, 4]] },
        files: ["src/layout.rs"],
        sha256: sha256Hex(review),
      }),
    ]);
    expect(sessions[0]?.requests.map((r) => r.text)).toEqual([opening, comment, review]);
    expect(sessions[0]?.requests[2]).toEqual({
      text: review,
      task: "issue-7",
      source: "https://github.com/example/widgets/issues/7",
      style: "comment",
      files: ["src/layout.rs"],
    });
  });

  it("reads GitHub API JSON: the opening from *-main.json, comment n from *-comments.json, CRLF as LF", async () => {
    const opening = "Sprockets leak\n\nEvery sprocket leaks.\nSteps:\n\n    spin()";
    const comment = "Still leaks with `spin --fast`.";
    const sessions = await materialise([
      request({ position: 1, snapshot: api("items/000042-main.json"), message: 0, trim: { title: true, lines: [[1, 4]] }, sha256: sha256Hex(opening) }),
      request({ position: 2, snapshot: api("items/000042-comments.json"), message: 3, trim: { title: false, lines: [[1, 1]] }, sha256: sha256Hex(comment) }),
    ]);
    expect(sessions[0]?.requests.map((r) => r.text)).toEqual([opening, comment]);
  });

  it("fails naming the session, the position and the source when a text does not match or a message is missing", async () => {
    await expect(
      materialise([request({ position: 1, snapshot: rendered(), message: 0, trim: { title: true, lines: [[5, 5]] }, sha256: sha256Hex("something else") })]),
    ).rejects.toThrow(
      /^made-up-1#1 \(https:\/\/github\.com\/example\/widgets\/issues\/7, example\/rendered:example\/widgets\/issues\/7\.md message 0\): the trimmed text does not match/,
    );
    await expect(
      materialise([request({ position: 1, snapshot: rendered(), message: 9, trim: { title: false, lines: [[1, 1]] }, sha256: "0".repeat(64) })]),
    ).rejects.toThrow(/made-up-1#1 .*message not found: the thread has 4 sections \(0 to 3\), not 9/);
    await expect(
      materialise([request({ position: 1, snapshot: rendered(), message: 1, trim: { title: false, lines: [[2, 40]] }, sha256: "0".repeat(64) })]),
    ).rejects.toThrow(/made-up-1#1 .*lines 2-40 run past the body/);
    await expect(
      materialise([
        request({ position: 1, snapshot: { ...rendered(), repo: "example/absent" }, message: 0, trim: { title: true, lines: [] }, sha256: "0".repeat(64) }),
      ]),
    ).rejects.toThrow(/made-up-1#1 .*no snapshot of example\/absent given/);
    await expect(
      materialise([
        request({
          position: 1,
          snapshot: { ...rendered(), path: "example/widgets/issues/8.md" },
          message: 0,
          trim: { title: true, lines: [] },
          sha256: "0".repeat(64),
        }),
      ]),
    ).rejects.toThrow(/made-up-1#1 .*cannot read example\/widgets\/issues\/8\.md/);
  });

  it("writes sessions.jsonl as the sets were first written: spaced separators, non-ASCII as is, control characters escaped", () => {
    expect(spacedJson({ a: "é — \u0000\n", b: [1, { c: true }], d: undefined })).toBe('{"a": "é — \\u0000\\n", "b": [1, {"c": true}]}');
    const jsonl = sessionsJsonl([{ id: "s", requests: [{ text: "x", task: "t" }] }]);
    expect(jsonl).toBe('{"id": "s", "requests": [{"text": "x", "task": "t"}]}\n');
    expect(parseLabelledSessions("s.jsonl", jsonl)).toEqual([{ id: "s", requests: [{ text: "x", task: "t" }] }]);
  });

  it("keeps a title alone when no body line is kept", () => {
    expect(trimmedText({ title: "Just a title  ", lines: ["body"] }, { title: true, lines: [] })).toBe("Just a title");
  });
});

describe("where the materialised sets are", () => {
  it("defaults to rcm-data beside the repository, or OPENCODE_RCM_DATA", () => {
    expect(materialisedDataDir("/src/opencode-rcm", {})).toBe("/src/rcm-data");
    expect(materialisedDataDir("/src/opencode-rcm", { OPENCODE_RCM_DATA: "/data/rcm" })).toBe("/data/rcm");
  });

  it("the router's fit says how to build them when they are absent", async () => {
    const empty = await makeTempDir("rcm-no-data");
    try {
      await expect(fittingSessions(packageRoot(), empty.path)).rejects.toThrow(
        /fixtures\/routing-threads-dev holds references only.*build-thread-sessions\.mjs --snapshot zaniebot\/unmaintain-rendered=/,
      );
    } finally {
      await empty.remove();
    }
  });

  it("a build with a snapshot missing fails before writing anything", async () => {
    const out = await makeTempDir("rcm-build-out");
    try {
      await expect(buildThreadSets({ root: packageRoot(), gitDirs: new Map(), outDir: out.path })).rejects.toThrow(
        /^threads-ripgrep-1#1 .*no snapshot of zaniebot\/unmaintain-rendered given/,
      );
      await expect(readFile(join(out.path, "routing-threads", "sessions.jsonl"), "utf8")).rejects.toThrow(/ENOENT/);
    } finally {
      await out.remove();
    }
  });
});
