import { isPytestPass } from "../score/is-pytest-pass.js";
import type { PytestStatus } from "../score/parse-pytest.js";
import type { Task } from "../suite/schema.js";
import type { TaskTestRuns, TestRun } from "./run-task-tests.js";
import { type Place, problemAt, type SuiteProblem } from "./suite-problem.js";

/**
 * What a task's two test runs say about its ground truth: with the test patch alone every
 * FAIL_TO_PASS test fails (or errors, or is missing) and every PASS_TO_PASS test passes; with
 * the reference patch too, all of them pass; and every named test is in the output of one run
 * at least (one in neither is not run by the test command at all: a typo, or a file it does
 * not run). A run that timed out or printed no test result is one problem, not one per test.
 */
export function testRunProblems(options: { task: Task; at: Place; runs: TaskTestRuns; timeoutMs: number }): SuiteProblem[] {
  const { task, at, runs, timeoutMs } = options;
  const problems: SuiteProblem[] = [];
  if (runs.notApplied !== undefined)
    problems.push(problemAt(at, runs.notApplied.field, `does not apply at ${task.base_commit.slice(0, 12)}: ${runs.notApplied.reason}`));
  const broken = (run: TestRun | undefined, when: string): boolean => {
    if (run === undefined) return true;
    if (run.timedOut) problems.push(problemAt(at, "test_cmd", `timed out after ${Math.round(timeoutMs / 1000)} s ${when}`));
    else if (run.statuses.size === 0)
      problems.push(
        problemAt(
          at,
          "test_cmd",
          `printed no test result ${when} (exit ${run.exitCode ?? "none"}; last line: ${JSON.stringify(run.lastLine.slice(0, 160))}); it must run pytest with -rA`,
        ),
      );
    else return false;
    return true;
  };
  const before = runs.testPatchOnly;
  const after = runs.withReference;
  const beforeBroken = broken(before, "with the test patch alone");
  const afterBroken = broken(after, "with the reference patch");
  if (beforeBroken && afterBroken) return problems;
  const status = (run: TestRun | undefined, broke: boolean, id: string): PytestStatus | "missing" | undefined =>
    broke || run === undefined ? undefined : (run.statuses.get(id) ?? "missing");
  const check = (list: "FAIL_TO_PASS" | "PASS_TO_PASS") => {
    task[list].forEach((id, index) => {
      const field = `${list}.${index}`;
      const first = status(before, beforeBroken, id);
      const second = status(after, afterBroken, id);
      if ((first === "missing" || first === undefined) && (second === "missing" || second === undefined) && (first ?? second) === "missing") {
        problems.push(
          problemAt(at, field, `the test command does not run ${id} (it is in no run's output: with the test patch alone, with the reference patch)`),
        );
        return;
      }
      if (list === "FAIL_TO_PASS" && first !== undefined && first !== "missing" && isPytestPass(first)) {
        problems.push(problemAt(at, field, `${id} already passes with the test patch alone (${first}): it does not need the reference patch`));
      }
      if (list === "PASS_TO_PASS" && first !== undefined && !isPass(first))
        problems.push(problemAt(at, field, `${id} does not pass with the test patch alone (${first})`));
      if (second !== undefined && !isPass(second)) problems.push(problemAt(at, field, `${id} does not pass with the reference patch (${second})`));
    });
  };
  check("FAIL_TO_PASS");
  check("PASS_TO_PASS");
  return problems;
}

function isPass(status: PytestStatus | "missing"): boolean {
  return status !== "missing" && isPytestPass(status);
}
