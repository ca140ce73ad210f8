import { describe, expect, it } from "vitest";
import type { TestRun } from "../../src/lab/bench/check/run-task-tests.js";
import { testRunProblems } from "../../src/lab/bench/check/test-run-problems.js";
import type { PytestStatus } from "../../src/lab/bench/score/parse-pytest.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";

const task: Task = {
  instance_id: "a__b-1",
  repo: "a/b",
  base_commit: "0123456789abcdef",
  patch: "diff --git a/b/x.py b/b/x.py\n",
  test_patch: "diff --git a/tests/test_x.py b/tests/test_x.py\n",
  FAIL_TO_PASS: ["tests/test_x.py::test_new", "tests/test_x.py::test_typo"],
  PASS_TO_PASS: ["tests/test_x.py::test_old"],
  stages: [{ id: "stage-1", request: "Do it." }],
  test_cmd: "pytest -rA tests/test_x.py",
  repo_url: "https://example.invalid/a/b.git",
};
const at = { file: "/suite/tasks/a__b-1/task.json", line: 0 };
const run = (statuses: Record<string, PytestStatus>, extra: Partial<TestRun> = {}): TestRun => ({
  statuses: new Map(Object.entries(statuses)),
  exitCode: 1,
  timedOut: false,
  lastLine: "",
  ...extra,
});
const lines = (runs: Parameters<typeof testRunProblems>[0]["runs"]) =>
  testRunProblems({ task, at, runs, timeoutMs: 60_000 }).map((problem) => `${problem.field}: ${problem.problem}`);

describe("what a task's test runs say about its ground truth", () => {
  it("says nothing of a task whose held-out tests fail before the reference patch and pass after it", () => {
    expect(
      lines({
        testPatchOnly: run({ "tests/test_x.py::test_new": "FAILED", "tests/test_x.py::test_typo": "ERROR", "tests/test_x.py::test_old": "PASSED" }),
        withReference: run({ "tests/test_x.py::test_new": "PASSED", "tests/test_x.py::test_typo": "PASSED", "tests/test_x.py::test_old": "PASSED" }),
      }),
    ).toEqual([]);
  });

  it("names a test the command never runs, one that passes too early and one the reference patch breaks", () => {
    expect(
      lines({
        testPatchOnly: run({ "tests/test_x.py::test_new": "PASSED", "tests/test_x.py::test_old": "PASSED" }),
        withReference: run({ "tests/test_x.py::test_new": "PASSED", "tests/test_x.py::test_old": "FAILED" }),
      }),
    ).toEqual([
      "FAIL_TO_PASS.0: tests/test_x.py::test_new already passes with the test patch alone (PASSED): it does not need the reference patch",
      "FAIL_TO_PASS.1: the test command does not run tests/test_x.py::test_typo (it is in no run's output: with the test patch alone, with the reference patch)",
      "PASS_TO_PASS.0: tests/test_x.py::test_old does not pass with the reference patch (FAILED)",
    ]);
  });

  it("says once that a command printed no test result, or that a patch does not apply", () => {
    expect(
      lines({
        testPatchOnly: run({}, { exitCode: 127, lastLine: "sh: pytest: not found" }),
        withReference: run({}, { exitCode: 127, lastLine: "sh: pytest: not found" }),
      }),
    ).toEqual([
      'test_cmd: printed no test result with the test patch alone (exit 127; last line: "sh: pytest: not found"); it must run pytest with -rA',
      'test_cmd: printed no test result with the reference patch (exit 127; last line: "sh: pytest: not found"); it must run pytest with -rA',
    ]);
    expect(lines({ notApplied: { field: "test_patch", reason: "error: patch failed: tests/test_x.py:3" } })).toEqual([
      "test_patch: does not apply at 0123456789ab: error: patch failed: tests/test_x.py:3",
    ]);
  });
});
