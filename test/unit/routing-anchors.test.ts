import { describe, expect, it } from "vitest";
import { routeLexically } from "../../src/plugin/core/routing/lexical-router.js";
import { extractSignals } from "../../src/plugin/core/routing/signals.js";
import { type Evidence, TaskIndex } from "../../src/plugin/core/routing/task-index.js";
import { THRESHOLD } from "../support/defaults.js";

const SURE = THRESHOLD;

function route(index: TaskIndex, text: string) {
  return routeLexically({ text, signals: extractSignals(text) }, index, { threshold: THRESHOLD });
}

/** An index with tasks opened in order, each with its requests' evidence; the last one is current. */
function sessionOf(tasks: ReadonlyArray<[id: string, evidence: Evidence[]]>): TaskIndex {
  const index = new TaskIndex();
  for (const [id, evidence] of tasks) {
    index.addTask(id, evidence[0]?.text ?? id);
    for (const item of evidence) index.addEvidence(id, item);
    index.current = id;
  }
  return index;
}

/** Three everyday tasks of one repository: a doc, a parser, a helper. */
function everyday(): TaskIndex {
  return sessionOf([
    ["t1", [{ text: "Draft docs/setup.md: how to install the tool, configure the cache directory and run the first sync.", paths: ["docs/setup.md"] }]],
    [
      "t2",
      [
        { text: "The date parser accepts 2023-02-30. Make parse_date reject impossible calendar dates.", paths: ["src/dates/parse.py", "tests/test_parse.py"] },
        { text: "also reject a month of 13", paths: ["src/dates/parse.py"] },
      ],
    ],
    ["t3", [{ text: "Add a slugify helper that lowercases titles and joins words with hyphens.", paths: ["src/util/slugify.py"] }]],
  ]);
}

const target = (decision: ReturnType<typeof route>) => (decision.target.kind === "task" ? decision.target.task : "new");

describe("anchors decide", () => {
  it.each([
    ["In docs/setup.md, list the supported platforms", "t1"],
    ["docs/setup.md: mention that Windows needs WSL, the rest of the steps are fine", "t1"],
    ["src/dates/parse.py still lets 0 through as a day, tighten that", "t2"],
    ["in src/util/slugify.py strip accents too", "t3"],
  ])("a follow-up that names exactly one task's file goes to that task, surely: %s", (text, task) => {
    const decision = route(everyday(), text);
    expect(target(decision)).toBe(task);
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
  });

  it.each([
    ["For the date parser, also reject day 0", "t2"],
    ["reviewer: the date parser shouldn't swallow the ValueError silently, surface a clear message instead", "t2"],
    ["the slugify helper should also collapse repeated hyphens", "t3"],
  ])("a follow-up in new words that repeats one task's own phrase goes to that task, surely: %s", (text, task) => {
    const decision = route(everyday(), text);
    expect(target(decision)).toBe(task);
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
  });

  it("a request that names two tasks' files is ambiguous: the full history stays", () => {
    const decision = route(everyday(), "make docs/setup.md show how src/util/slugify.py names the cache folders");
    expect(decision.confidence).toBeLessThan(SURE);
  });

  it("says why: the anchor is in the reason", () => {
    expect(route(everyday(), "In docs/setup.md, list the supported platforms").reason).toContain("docs/setup.md");
  });
});

describe("a new task needs positive evidence", () => {
  it.each([
    "New task: add a CHANGELOG.md entry for release 0.2.",
    "new thing: set up goreleaser so pushing a v* tag builds the binaries",
    "separately, the CI cache key ignores the lockfile",
    "ok another thing - the logger prints twice on startup",
    "Task B: rename the --quiet flag to --silent",
  ])("an explicit cue opens a task, surely: %s", (text) => {
    const decision = route(everyday(), text);
    expect(target(decision)).toBe("new");
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
  });

  it("an explicit cue opens a task even right after the first request, and even naming that task's file", () => {
    const index = sessionOf([["t1", [{ text: "Draft docs/beta/INSTALL.md for the beta testers", paths: ["docs/beta/INSTALL.md"] }]]]);
    const decision = route(index, "New task: add an uninstall section to docs/beta/INSTALL.md's sibling, docs/beta/FAQ.md");
    expect(target(decision)).toBe("new");
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
  });

  it("right after the first request, a follow-up naming its file stays on it, surely", () => {
    const index = sessionOf([["t1", [{ text: "Draft docs/beta/INSTALL.md for the beta testers", paths: ["docs/beta/INSTALL.md"] }]]]);
    for (const text of ["In docs/beta/INSTALL.md, add an uninstall paragraph", "For docs/beta/INSTALL.md, state the minimum Python version"]) {
      const decision = route(index, text);
      expect(target(decision)).toBe("t1");
      expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
    }
  });

  it("a request that names no task and brings its own words is never folded, surely, into the current one", () => {
    const decision = route(everyday(), "the csv download button does nothing on safari, look into it");
    if (target(decision) !== "new") expect(decision.confidence).toBeLessThan(SURE);
  });

  it("a bare continuation stays on the current task", () => {
    expect(target(route(everyday(), "now add a test for that"))).toBe("t3");
  });
});

describe("evidence relative to this session (issue 45)", () => {
  /** A login task, then a cued task opened as "the weekly digest", the session back on login. */
  function digestSession(): TaskIndex {
    return sessionOf([
      ["t1", [{ text: "The login form in src/auth/login.ts shows no error when the password is wrong", paths: ["src/auth/login.ts"] }]],
      ["t2", [{ text: "Separate thing: the weekly digest email in src/mail/digest.ts should skip users who unsubscribed", paths: ["src/mail/digest.ts"] }]],
      ["t1", [{ text: "back on login: also disable the button while the request is in flight", paths: ["src/auth/login.ts"] }]],
    ]);
  }

  it("takes the name a task was opened as for that task, even in everyday words", () => {
    const decision = route(digestSession(), "about the weekly digest again: send it on Mondays");
    expect(target(decision)).toBe("t2");
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
  });

  it("still takes no single everyday word for a task's name", () => {
    const decision = route(digestSession(), "the email should go out weekly, on Mondays");
    expect(target(decision) === "t2" && decision.confidence >= SURE).toBe(false);
  });

  it("takes what a file is called (its folder and name) for its task: lib/cron/parse.go is the cron parser", () => {
    const index = sessionOf([
      ["t1", [{ text: "Fix the flaky retry test in tests/test_retry.py, it sleeps for real", paths: ["tests/test_retry.py"] }]],
      ["t2", [{ text: "Create lib/cron/parse.go that parses five-field cron expressions into a schedule", paths: ["lib/cron/parse.go"] }]],
    ]);
    const decision = route(index, "the cron parser should also accept @daily and @hourly");
    expect(target(decision)).toBe("t2");
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
  });

  it("names no task by a phrase of the ask ('a clear error') or two words of the trade ('the error message')", () => {
    const index = sessionOf([
      ["t1", [{ text: "The importer in src/importer.py should reject a bad row with a clear error", paths: ["src/importer.py"] }]],
      ["t2", [{ text: "Separate task: the error message of the exporter in src/exporter.py is cut off", paths: ["src/exporter.py"] }]],
      ["t3", [{ text: "New task: cache the avatar thumbnails in src/avatars.py", paths: ["src/avatars.py"] }]],
    ]);
    expect(route(index, "reject an empty header with a clear error too").confidence).toBeLessThan(SURE);
    expect(route(index, "the error message should name the column").confidence).toBeLessThan(SURE);
  });

  it("takes a return that names its task's file and function for that task, surely, though it reads like a report", () => {
    const index = sessionOf([
      ["t1", [{ text: "Task alpha: in src/alpha.py add parse_alpha that splits a line into fields", paths: ["src/alpha.py"] }]],
      ["t2", [{ text: "Separate task beta: in src/beta.py add format_beta that pads a table row", paths: ["src/beta.py"] }]],
      ["t3", [{ text: "Another task gamma: in src/gamma.py add count_gamma that tallies words", paths: ["src/gamma.py"] }]],
    ]);
    const decision = route(index, "Back to task alpha: parse_alpha in src/alpha.py must also strip whitespace");
    expect(target(decision)).toBe("t1");
    expect(decision.confidence).toBeGreaterThanOrEqual(SURE);
    // A new report that only reuses the file is still a neighbour as often as a part: unsure.
    expect(route(index, "Crash in src/alpha.py when the input file is empty: IndexError from the split").confidence).toBeLessThan(SURE);
  });

  it("opens a task for an ask to create a file no task has, unsure (too few such openings were seen to trust it)", () => {
    const decision = route(everyday(), "Create src/export/csv_writer.py that writes rows with a configurable delimiter");
    expect(decision.target.kind).toBe("new");
    expect(decision.confidence).toBeLessThan(SURE);
    // A test file is the work at hand's, not a new task's.
    expect(route(everyday(), "write that as a test in tests/test_parse_months.py").target.kind).not.toBe("new");
  });

  it("keeps a reply on the task the session is surely on, surely, when it names nothing else and nothing new", () => {
    for (const text of [
      "ok, and keep digits in the titles too",
      "so it lowercases already? then just join with single hyphens",
      "reviewer: the helper should not touch titles that are already slugs",
    ]) {
      const decision = route(everyday(), text);
      expect(target(decision), text).toBe("t3");
      expect(decision.confidence, text).toBeGreaterThanOrEqual(SURE);
      expect(decision.reason, text).toContain("a reply to the task just worked on");
    }
  });

  it("holds such a reply back where something in it is another task's or new to the session", () => {
    for (const text of [
      "ok, and the titles should come out as dates too", // another task's word ("date")
      "ok, and also call slugify_path from the CLI", // a code name nobody used
      "now the upload widget should show the titles", // "the X" in words nobody used
      "ok, and put it in src/util/names.py", // a source file nobody touched
    ]) {
      const decision = route(everyday(), text);
      expect(target(decision) === "t3" && decision.reason.includes("a reply to the task just worked on"), text).toBe(false);
    }
    // After an unsure request the session is surely on no task: the same reply is no evidence.
    const index = everyday();
    index.current = undefined;
    expect(route(index, "ok, and keep digits in the titles too").reason).not.toContain("a reply to the task just worked on");
  });

  it("names a task by its title as by its id, and says where an unsure request points", () => {
    const decision = route(everyday(), "for 'Add a slugify helper that lowercases titles and joins words': keep digits");
    expect(target(decision)).toBe("t3");
    const unsure = route(everyday(), "make it handle the empty case too, and mention it in the docs");
    expect(unsure.confidence).toBeLessThan(SURE);
    expect(unsure.pointsTo).toBeDefined();
  });
});
