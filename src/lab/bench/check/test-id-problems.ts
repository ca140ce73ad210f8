import type { Task } from "../suite/schema.js";
import { type Place, problemAt, type SuiteProblem } from "./suite-problem.js";
import { runsTest, testCommandPaths, testFileOf } from "./test-command-paths.js";

const LISTS = ["FAIL_TO_PASS", "PASS_TO_PASS"] as const;

/**
 * The problems of a task's test ids that show without running anything: an id in a file the
 * test command does not run (pytest node ids only; a command that names no files runs
 * anything), an id listed twice, an id both FAIL_TO_PASS and PASS_TO_PASS.
 */
export function testIdProblems(options: { task: Task; at: Place }): SuiteProblem[] {
  const { task, at } = options;
  const paths = testCommandPaths(task.test_cmd);
  const problems: SuiteProblem[] = [];
  const seen = new Map<string, string>();
  for (const list of LISTS) {
    task[list].forEach((id, index) => {
      const field = `${list}.${index}`;
      const earlier = seen.get(id);
      if (earlier !== undefined) {
        problems.push(
          problemAt(at, field, `"${id}" is also ${earlier}${earlier.startsWith(list) ? "" : ": a test cannot both fail and pass before the patch"}`),
        );
        return;
      }
      seen.set(id, field);
      if (!runsTest(paths, id)) {
        problems.push(
          problemAt(at, field, `"${id}": the test command does not run ${testFileOf(id)} (it runs ${paths.join(" ")}), so this test can never pass`),
        );
      }
    });
  }
  return problems;
}
