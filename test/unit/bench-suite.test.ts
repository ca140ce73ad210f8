import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type InputLocation, RcmError } from "../../src/kit/errors/rcm-error.js";
import { loadSuite, loadTasks, parseJsonLines } from "../../src/lab/bench/suite/load-suite.js";
import { makeSessions, writeSessions } from "../../src/lab/bench/suite/make-sessions.js";
import type { SessionSpec, Task } from "../../src/lab/bench/suite/schema.js";
import { TaskSchema } from "../../src/lab/bench/suite/schema.js";
import { suiteError as newSuiteError } from "../../src/lab/bench/suite/suite-error.js";
import { makeTempDir } from "../support/temp-dir.js";

/** A small git diff changing each of `files`. */
function diff(files: string[]): string {
  return files.map((file) => [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`, "@@ -1 +1 @@", "-old", "+new", ""].join("\n")).join("");
}

function task(id: string, options: { files: string[]; stages?: number; repo?: string }): Task {
  return {
    instance_id: id,
    repo: options.repo ?? "acme/widgets",
    base_commit: "abc1234",
    patch: diff(options.files),
    test_patch: diff([`tests/test_${id.toLowerCase()}.py`]),
    FAIL_TO_PASS: [`tests/test_${id.toLowerCase()}.py::test_fix`],
    PASS_TO_PASS: [],
    stages: Array.from({ length: options.stages ?? 2 }, (_, index) => ({ id: String(index + 1), request: `${id} request ${index + 1}` })),
    test_cmd: "python -m pytest -rA tests",
    repo_url: "https://example.invalid/acme/widgets.git",
  };
}

/** `F1`, `B2`, ..., `finalize`: a schedule as short names. */
function names(session: SessionSpec | undefined): string[] {
  return (session?.schedule ?? []).map((entry) => (entry.stage === "finalize" ? "finalize" : `${entry.task}${entry.stage}`));
}

type Line = object | string;

async function writeSuite(dir: string, files: { meta?: Line; tasks: Line[]; sessions?: Line[] }): Promise<void> {
  const render = (line: Line): string => (typeof line === "string" ? line : JSON.stringify(line));
  await writeFile(join(dir, "suite.json"), render(files.meta ?? { name: "tiny" }));
  await writeFile(join(dir, "tasks.jsonl"), `${files.tasks.map(render).join("\n")}\n`);
  if (files.sessions !== undefined) await writeFile(join(dir, "sessions.jsonl"), `${files.sessions.map(render).join("\n")}\n`);
}

/** The `suite` error a promise rejects with: where it is, and its message. */
async function suiteError(promise: Promise<unknown>): Promise<InputLocation & { message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RcmError);
  const { code, location, message } = error as RcmError;
  expect(code).toBe("suite");
  if (location === undefined) throw new Error(`no location in: ${message}`);
  return { ...location, message };
}

// A: three stages in src/pkg; B: two stages in src/pkg (near A); C: one stage in lib.
const A = task("A", { files: ["src/pkg/a.py"], stages: 3 });
const B = task("B", { files: ["src/pkg/b.py", "tests/test_shared.py"], stages: 2 });
const C = task("C", { files: ["lib/c.py"], stages: 1 });
const A_UNINTERRUPTED: SessionSpec = {
  session_id: "A__uninterrupted",
  focus: "A",
  condition: "uninterrupted",
  locality: "near",
  interruptions: [],
  schedule: ["1", "2", "3", "finalize"].map((stage) => ({ task: "A", stage })),
};
const A_SWITCHED: SessionSpec = {
  session_id: "A__switched",
  focus: "A",
  condition: "switched",
  locality: "near",
  interruptions: ["B", "C"],
  schedule: [
    { task: "A", stage: "1" },
    { task: "B", stage: "1" },
    { task: "C", stage: "1" },
    { task: "A", stage: "2" },
    { task: "B", stage: "2" },
    { task: "A", stage: "3" },
    { task: "A", stage: "finalize" },
  ],
};

function switched(change: Partial<SessionSpec>): SessionSpec {
  return { ...A_SWITCHED, ...change };
}

function withSchedule(entries: string[]): SessionSpec {
  return switched({
    schedule: entries.map((name) => (name === "finalize" ? { task: "A", stage: "finalize" } : { task: name.slice(0, 1), stage: name.slice(1) })),
  });
}

describe("loadSuite", () => {
  let dir: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    dir = await makeTempDir("bench-suite");
  });
  afterEach(async () => {
    await dir.remove();
  });

  it("loads a valid suite, skipping blank lines", async () => {
    await mkdir(join(dir.path, "repos"));
    await writeFile(join(dir.path, "repos", "widgets.bundle"), "bundle");
    const { repo_url: _url, ...bundled } = C;
    await writeSuite(dir.path, {
      meta: { name: "tiny", description: "three tasks" },
      tasks: [A, "", B, "   ", { ...bundled, repo_bundle: "repos/widgets.bundle" }],
      sessions: [A_UNINTERRUPTED, "", A_SWITCHED],
    });
    const suite = await loadSuite(dir.path);
    expect(suite.meta).toEqual({ name: "tiny", description: "three tasks" });
    expect(suite.tasks.map((entry) => entry.instance_id)).toEqual(["A", "B", "C"]);
    expect(suite.sessions).toEqual([A_UNINTERRUPTED, A_SWITCHED]);
    expect((await loadTasks(dir.path)).map((entry) => entry.repo_bundle ?? entry.repo_url)).toEqual([A.repo_url, B.repo_url, "repos/widgets.bundle"]);
  });

  it("reports schema problems with file, line and dotted field", async () => {
    await writeSuite(dir.path, { tasks: [A, "", { ...B, stages: [{ id: "1", request: "" }] }], sessions: [] });
    const error = await suiteError(loadSuite(dir.path));
    expect(error.file).toBe(join(dir.path, "tasks.jsonl"));
    expect(error.line).toBe(3);
    expect(error.field).toBe("stages.0.request");
    expect(error.message.startsWith(`${join(dir.path, "tasks.jsonl")}:3: stages.0.request: `)).toBe(true);
  });

  it("names an unknown key as the field", async () => {
    await writeSuite(dir.path, { tasks: [{ ...A, extra: 1 }], sessions: [] });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.line, error.field]).toEqual([1, "extra"]);
  });

  it("rejects a line that is not JSON as a whole line", async () => {
    await writeSuite(dir.path, { tasks: [A, "{not json"], sessions: [] });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.line, error.field]).toEqual([2, "(line)"]);
    expect(error.problem).toMatch(/^not JSON/);
  });

  it("reports suite.json problems without a line number", async () => {
    await writeSuite(dir.path, { meta: { description: "no name" }, tasks: [A], sessions: [] });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.line, error.field]).toEqual([0, "name"]);
    expect(error.message.startsWith(`${join(dir.path, "suite.json")}: name: `)).toBe(true);
  });

  it("reports a missing file as a whole file", async () => {
    await writeSuite(dir.path, { tasks: [A] });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.file, error.line, error.field]).toEqual([join(dir.path, "sessions.jsonl"), 0, "(file)"]);
    // ...and says what the file is for, and how to make it.
    expect(error.problem).toBe(
      "not found: the sessions to run, one JSON object per line (bench make-sessions --suite <dir> writes them) (docs/benchmark-formats.md)",
    );
  });

  it("validates tasks alone with loadTasks", async () => {
    await writeSuite(dir.path, { tasks: [A, B, A] });
    const error = await suiteError(loadTasks(dir.path));
    expect([error.line, error.field, error.problem]).toEqual([3, "instance_id", 'duplicate instance_id "A" (first on line 1)']);
  });

  const { repo_url: _url, ...unbundled } = A;
  it.each([
    ["an absolute path", "/etc/passwd", /must be a path relative/],
    ["a path leaving the suite", "../outside.bundle", /leaves the suite directory/],
    ["a missing file", "repos/missing.bundle", /does not exist/],
  ])("rejects a repo_bundle that is %s", async (_name, bundle, problem) => {
    await writeSuite(dir.path, { tasks: [{ ...unbundled, repo_bundle: bundle }], sessions: [] });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.file, error.line, error.field]).toEqual([join(dir.path, "tasks.jsonl"), 1, "repo_bundle"]);
    expect(error.problem).toMatch(problem);
  });

  it("rejects duplicate stage ids within a task", async () => {
    const twice = {
      ...A,
      stages: [
        { id: "s", request: "one" },
        { id: "t", request: "two" },
        { id: "s", request: "three" },
      ],
    };
    await writeSuite(dir.path, { tasks: [B, twice], sessions: [] });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.line, error.field, error.problem]).toEqual([2, "stages.2.id", 'duplicate stage id "s" (also stages.0.id)']);
  });

  const sessionCases: [string, Line[], number, string, RegExp][] = [
    [
      "a duplicate session_id",
      [A_UNINTERRUPTED, A_SWITCHED, switched({ focus: "B" })],
      3,
      "session_id",
      /duplicate session_id "A__switched" \(first on line 2\)/,
    ],
    ["an unknown focus", [switched({ focus: "Z" })], 1, "focus", /unknown task "Z"/],
    ["an unknown interruption", [switched({ interruptions: ["B", "Q"] })], 1, "interruptions.1", /unknown task "Q"/],
    ["an unknown scheduled task", [withSchedule(["A1", "B1", "X1", "A2", "A3", "finalize"])], 1, "schedule.2.task", /unknown task "X"/],
    ["an unknown stage", [withSchedule(["A1", "B1", "C7", "A2", "A3", "finalize"])], 1, "schedule.2.stage", /unknown stage "7" of task "C"/],
    ["a finalize before the end", [withSchedule(["A1", "finalize", "B1", "C1", "A2", "A3", "finalize"])], 1, "schedule.1.stage", /finalize must be last/],
    ["a schedule not ending with finalize", [withSchedule(["A1", "B1", "C1", "A2", "A3"])], 1, "schedule.4.stage", /finalize must be last/],
    [
      "a finalize of another task",
      [switched({ schedule: [...A_SWITCHED.schedule.slice(0, -1), { task: "B", stage: "finalize" }] })],
      1,
      "schedule.6.task",
      /finalize must be last/,
    ],
    ["an uninterrupted session with interruptions", [{ ...A_UNINTERRUPTED, interruptions: ["B"] }], 1, "interruptions", /has no interruptions/],
    [
      "an uninterrupted session scheduling another task",
      [{ ...A_UNINTERRUPTED, schedule: [{ task: "A", stage: "1" }, { task: "B", stage: "1" }, ...A_UNINTERRUPTED.schedule.slice(1)] }],
      1,
      "schedule.1.task",
      /schedules only its focus/,
    ],
    [
      "a switched session scheduling a task it does not list",
      [switched({ interruptions: ["B"] })],
      1,
      "schedule.2.task",
      /"C" is not one of the interruptions/,
    ],
    [
      "a switched session never scheduling an interruption",
      [withSchedule(["A1", "B1", "A2", "B2", "A3", "finalize"])],
      1,
      "interruptions.1",
      /"C" is never scheduled/,
    ],
    [
      "a projection that drops a focus stage",
      [{ ...A_UNINTERRUPTED, schedule: A_UNINTERRUPTED.schedule.filter((entry) => entry.stage !== "2") }],
      1,
      "schedule.1.stage",
      /projection onto the focus differs from the focus's stages then finalize: \[1, 3, finalize\] instead of \[1, 2, 3, finalize\]/,
    ],
    [
      "a projection that reorders focus stages",
      [withSchedule(["A2", "B1", "C1", "A1", "B2", "A3", "finalize"])],
      1,
      "schedule.0.stage",
      /projection onto the focus differs/,
    ],
    [
      "a projection that differs from its uninterrupted twin",
      [withSchedule(["A1", "B1", "C1", "A3", "B2", "A2", "finalize"]), A_UNINTERRUPTED],
      1,
      "schedule.3.stage",
      /projection onto the focus differs from its uninterrupted twin "A__uninterrupted"/,
    ],
    [
      "an interruption that changes a file the focus changes",
      [
        switched({
          interruptions: ["B", "C", "D"],
          schedule: [...A_SWITCHED.schedule.slice(0, -1), { task: "D", stage: "1" }, { task: "A", stage: "finalize" }],
        }),
      ],
      1,
      "interruptions.2",
      /^interruption D touches src\/pkg\/a\.py, which the focus changes$/,
    ],
  ];
  it.each(sessionCases)("rejects %s", async (_name, sessions, line, field, problem) => {
    const D = task("D", { files: ["docs/d.md", "src/pkg/a.py"], stages: 1 });
    await writeSuite(dir.path, { tasks: [A, B, C, D], sessions });
    const error = await suiteError(loadSuite(dir.path));
    expect([error.file, error.line, error.field]).toEqual([join(dir.path, "sessions.jsonl"), line, field]);
    expect(error.problem).toMatch(problem);
    expect(error.message).toBe(`${join(dir.path, "sessions.jsonl")}:${line}: ${field}: ${error.problem}`);
  });

  it("does not count shared test files as a conflict", async () => {
    const D = task("D", { files: ["docs/d.md", "tests/test_shared.py"], stages: 1 });
    const E = task("E", { files: ["src/pkg/e.py", "tests/test_shared.py"], stages: 1 });
    const focusE: SessionSpec = {
      session_id: "E__switched",
      focus: "E",
      condition: "switched",
      locality: "far",
      interruptions: ["D"],
      schedule: [
        { task: "E", stage: "1" },
        { task: "D", stage: "1" },
        { task: "E", stage: "finalize" },
      ],
    };
    await writeSuite(dir.path, { tasks: [D, E], sessions: [focusE] });
    await expect(loadSuite(dir.path)).resolves.toMatchObject({ sessions: [focusE] });
  });
});

describe("parseJsonLines", () => {
  it("numbers lines from 1 and counts blank ones", () => {
    const lines = parseJsonLines("tasks.jsonl", `\n${JSON.stringify(A)}\r\n\n${JSON.stringify(B)}`, TaskSchema);
    expect(lines.map((entry) => [entry.line, entry.value.instance_id])).toEqual([
      [2, "A"],
      [4, "B"],
    ]);
  });
});

describe("a suite error", () => {
  it("omits the line when it is not about one", () => {
    expect(newSuiteError({ file: "s/suite.json", line: 0, field: "(file)", problem: "x" }).message).toBe("s/suite.json: (file): x");
    expect(newSuiteError({ file: "s/tasks.jsonl", line: 4, field: "repo", problem: "y" }).message).toBe("s/tasks.jsonl:4: repo: y");
  });
});

describe("makeSessions", () => {
  const paperTasks = [
    task("F", { files: ["src/core/f.py"], stages: 3 }),
    ...["B", "C", "D", "E"].map((id) => task(id, { files: [`src/other/${id.toLowerCase()}.py`], stages: 2 })),
  ];

  function seedGivingOrder(tasks: Task[], focus: string, order: string[]): number {
    for (let seed = 1; seed < 500; seed += 1) {
      const found = makeSessions(tasks, { seed }).sessions.find((session) => session.session_id === `${focus}__switched`);
      if (found?.interruptions.join() === order.join()) return seed;
    }
    throw new Error("no seed gives that order");
  }

  it("builds the paper's example schedule for a three-stage focus and four interruptions", () => {
    const seed = seedGivingOrder(paperTasks, "F", ["B", "C", "D", "E"]);
    const { sessions, warnings } = makeSessions(paperTasks, { seed });
    expect(warnings).toEqual([]);
    const switchedF = sessions.find((session) => session.session_id === "F__switched");
    expect(names(switchedF)).toEqual(["F1", "B1", "C1", "D1", "E1", "F2", "B2", "C2", "D2", "E2", "F3", "finalize"]);
    expect(names(sessions.find((session) => session.session_id === "F__uninterrupted"))).toEqual(["F1", "F2", "F3", "finalize"]);
  });

  it("follows the chosen order in every chunk whatever the seed", () => {
    const switchedF = makeSessions(paperTasks, { seed: 7 }).sessions.find((session) => session.session_id === "F__switched");
    const order = switchedF?.interruptions ?? [];
    expect([...order].sort()).toEqual(["B", "C", "D", "E"]);
    expect(names(switchedF)).toEqual(["F1", ...order.map((id) => `${id}1`), "F2", ...order.map((id) => `${id}2`), "F3", "finalize"]);
  });

  it("puts later interruption stages into the last gap, ordered by stage then interruption", () => {
    const tasks = [task("F", { files: ["f/f.py"], stages: 2 }), task("B", { files: ["b/b.py"], stages: 3 }), task("C", { files: ["c/c.py"], stages: 2 })];
    const seed = seedGivingOrder(tasks, "F", ["B", "C"]);
    const switchedF = makeSessions(tasks, { seed, interruptions: 2 }).sessions.find((session) => session.session_id === "F__switched");
    expect(names(switchedF)).toEqual(["F1", "B1", "C1", "B2", "C2", "B3", "F2", "finalize"]);
  });

  it("puts every interruption stage after a single-stage focus", () => {
    const tasks = [task("F", { files: ["f/f.py"], stages: 1 }), task("B", { files: ["b/b.py"], stages: 2 })];
    const switchedF = makeSessions(tasks, { interruptions: 1 }).sessions.find((session) => session.session_id === "F__switched");
    expect(names(switchedF)).toEqual(["F1", "B1", "B2", "finalize"]);
  });

  it("calls a pair near when parent directories overlap and far otherwise", () => {
    const near = makeSessions([task("F", { files: ["src/pkg/f.py"] }), task("B", { files: ["src/pkg/b.py"] })], { interruptions: 1 });
    expect(near.sessions.map((session) => [session.session_id, session.locality])).toEqual([
      ["F__uninterrupted", "near"],
      ["F__switched", "near"],
      ["B__uninterrupted", "near"],
      ["B__switched", "near"],
    ]);
    const far = makeSessions([task("F", { files: ["src/pkg/f.py"] }), task("B", { files: ["src/pkg/sub/b.py", "tests/f.py"] })], { interruptions: 1 });
    expect(far.sessions.map((session) => session.locality)).toEqual(["far", "far", "far", "far"]);
  });

  it("excludes tasks changing the same source file or from another repository", () => {
    const tasks = [
      task("F", { files: ["src/pkg/f.py", "tests/test_common.py"] }),
      task("SAME", { files: ["src/pkg/f.py"] }),
      task("OTHER", { files: ["src/x.py"], repo: "acme/other" }),
      task("OK", { files: ["src/pkg/ok.py", "tests/test_common.py"] }),
    ];
    const switchedF = makeSessions(tasks).sessions.find((session) => session.session_id === "F__switched");
    expect(switchedF?.interruptions).toEqual(["OK"]);
  });

  it("warns when there are fewer candidates than asked, and makes only the uninterrupted session when there are none", () => {
    const tasks = [task("F", { files: ["a/f.py"] }), task("B", { files: ["b/b.py"] }), task("LONE", { files: ["c/l.py"], repo: "acme/lone" })];
    const { sessions, warnings } = makeSessions(tasks);
    expect(sessions.map((session) => session.session_id)).toEqual([
      "F__uninterrupted",
      "F__switched",
      "B__uninterrupted",
      "B__switched",
      "LONE__uninterrupted",
    ]);
    expect(warnings).toEqual([
      "F: only 1 of 4 interruptions available in acme/widgets",
      "B: only 1 of 4 interruptions available in acme/widgets",
      "LONE: no other task of acme/lone is free of shared files; made only the uninterrupted session",
    ]);
  });

  it("chooses deterministically for a seed and differently for another", () => {
    const tasks = ["F", "B", "C", "D", "E", "G", "H"].map((id) => task(id, { files: [`dir${id}/${id}.py`] }));
    const first = makeSessions(tasks, { seed: 1 });
    expect(makeSessions(tasks, { seed: 1 })).toEqual(first);
    expect(first.sessions.every((session) => session.interruptions.length === 0 || session.interruptions.length === 4)).toBe(true);
    const other = makeSessions(tasks, { seed: 2 });
    const chosen = (result: { sessions: SessionSpec[] }) => result.sessions.map((session) => session.interruptions.join());
    expect(chosen(other)).not.toEqual(chosen(first));
  });

  describe("with a suite directory", () => {
    let dir: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      dir = await makeTempDir("bench-sessions");
    });
    afterEach(async () => {
      await dir.remove();
    });

    it("makes sessions that loadSuite accepts, written one per line in a fixed key order", async () => {
      const tasks = [
        ...paperTasks,
        task("G", { files: ["src/core/g.py"], stages: 1 }),
        task("H", { files: ["src/core/f.py"], stages: 4 }),
        task("LONE", { files: ["x.py"], repo: "acme/lone" }),
      ];
      await writeSuite(dir.path, { tasks });
      const { sessions } = makeSessions(await loadTasks(dir.path), { seed: 3 });
      const file = await writeSessions(dir.path, sessions);
      expect(file).toBe(join(dir.path, "sessions.jsonl"));
      const text = await readFile(file, "utf8");
      expect(text.endsWith("}\n")).toBe(true);
      expect(text.split("\n").filter((line) => line !== "")).toHaveLength(sessions.length);
      expect(Object.keys(JSON.parse(text.split("\n")[0] ?? "{}"))).toEqual(["session_id", "focus", "condition", "locality", "interruptions", "schedule"]);
      const suite = await loadSuite(dir.path);
      expect(suite.sessions).toEqual(sessions);
      expect(suite.sessions.filter((session) => session.condition === "switched")).toHaveLength(7);
    });
  });
});
