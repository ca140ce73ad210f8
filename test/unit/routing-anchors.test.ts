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
