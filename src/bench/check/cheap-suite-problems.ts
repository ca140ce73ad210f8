import { join } from "node:path";
import { RcmError } from "../../errors/rcm-error.js";
import { loadFaithfulPlaybook } from "../agent/faithful-playbook.js";
import type { Suite } from "../suite/schema.js";
import { faithfulProblems, tasksWithFaithfulFolder } from "./faithful-problems.js";
import { localityProblems } from "./locality-problems.js";
import { playbookProblems } from "./playbook-problems.js";
import { placeOf, sessionPlaces, taskPlaces } from "./suite-places.js";
import type { SuiteProblem } from "./suite-problem.js";
import { testIdProblems } from "./test-id-problems.js";

/**
 * Every problem of a loaded suite's ground truth that shows without a checkout or a test run
 * (milliseconds): test ids in files the test command does not run, localities other than the
 * definition's, and the scripted agents' files (agent.json, the tasks' faithful/ folders) out
 * of step with the suite. All of them, in file order; empty when there is none.
 */
export async function cheapSuiteProblems(suite: Suite): Promise<SuiteProblem[]> {
  const tasks = await taskPlaces(suite);
  const problems: SuiteProblem[] = [];
  for (const task of suite.tasks) problems.push(...testIdProblems({ task, at: placeOf(tasks, task.instance_id, join(suite.dir, "tasks")) }));
  problems.push(...localityProblems({ suite, places: await sessionPlaces(suite) }));
  const playbook = await playbookProblems({ suite, places: tasks });
  problems.push(...playbook.problems);
  const faithful = await faithfulProblems({ suite, playbook: playbook.playbook });
  problems.push(...faithful);
  // What the faithful agent checks itself and the above does not (a confusion's shared word...).
  if (playbook.playbook !== undefined && playbook.problems.length === 0 && faithful.length === 0 && (await tasksWithFaithfulFolder(suite)).size > 0) {
    problems.push(...(await faithfulLoadProblem(suite.dir)));
  }
  return problems;
}

async function faithfulLoadProblem(dir: string): Promise<SuiteProblem[]> {
  try {
    await loadFaithfulPlaybook(dir);
    return [];
  } catch (error) {
    if (error instanceof RcmError && error.location !== undefined) return [error.location];
    throw error;
  }
}
