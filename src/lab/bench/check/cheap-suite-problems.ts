import { join } from "node:path";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import { loadFaithfulPlaybook } from "../agent/faithful-playbook.js";
import type { Suite } from "../suite/schema.js";
import { faithfulProblems, tasksWithFaithfulFolder } from "./faithful-problems.js";
import { localityProblems } from "./locality-problems.js";
import { PLAYBOOK_FILE, playbookProblems } from "./playbook-problems.js";
import { placeOf, sessionPlaces, taskPlaces } from "./suite-places.js";
import type { SuiteProblem } from "./suite-problem.js";
import { testIdProblems } from "./test-id-problems.js";

/** Which agent the suite is checked for: its files are checked only for an agent that reads them. */
export type CheckedAgent = "model" | "scripted" | "faithful";

/**
 * Every problem of a loaded suite's ground truth that shows without a checkout or a test run
 * (milliseconds): test ids in files the test command does not run, localities other than the
 * definition's, and the scripted agents' files out of step with the suite: agent.json (for
 * `agent` scripted or faithful) and the tasks' faithful/ folders (faithful). Without `agent`,
 * all of them, as `bench check` does. Every problem, in file order; empty when there is none.
 */
export async function cheapSuiteProblems(suite: Suite, options: { agent?: CheckedAgent | undefined } = {}): Promise<SuiteProblem[]> {
  const agent = options.agent ?? "faithful";
  const tasks = await taskPlaces(suite);
  const problems: SuiteProblem[] = [];
  for (const task of suite.tasks) problems.push(...testIdProblems({ task, at: placeOf(tasks, task.instance_id, join(suite.dir, "tasks")) }));
  problems.push(...localityProblems({ suite, places: await sessionPlaces(suite) }));
  if (agent === "model") return problems;
  const playbook = await playbookProblems({ suite, places: tasks });
  problems.push(...playbook.problems);
  if (options.agent !== undefined && playbook.playbook === undefined && playbook.problems.length === 0) {
    problems.push({
      file: join(suite.dir, PLAYBOOK_FILE),
      line: 0,
      field: "(file)",
      problem: `missing: --agent ${options.agent} plays the suite's agent.json`,
    });
  }
  if (agent === "scripted") return problems;
  const faithful = await faithfulProblems({ suite, playbook: playbook.playbook });
  problems.push(...faithful);
  // What the faithful agent checks itself and the above does not (a confusion's shared word...).
  const wanted = options.agent === "faithful" || (await tasksWithFaithfulFolder(suite)).size > 0;
  if (playbook.playbook !== undefined && playbook.problems.length === 0 && faithful.length === 0 && wanted) {
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
