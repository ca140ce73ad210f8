import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import { repoSource } from "../checkout/prepare-checkouts.js";
import { findPython } from "../score/find-python.js";
import { ScoreHarnessError } from "../score/score-harness-error.js";
import type { Suite, Task } from "../suite/schema.js";
import { PATCH_FILE, TASK_FILE, TEST_PATCH_FILE } from "../suite/task-folder.js";
import { cheapSuiteProblems } from "./cheap-suite-problems.js";
import { runTaskTests } from "./run-task-tests.js";
import { placeOf, taskPlaces } from "./suite-places.js";
import type { SuiteProblem } from "./suite-problem.js";
import { testRunProblems } from "./test-run-problems.js";

/** `cheap`: the suite's files alone; `full`: also each task's tests, run before and after its reference patch. */
export type CheckLevel = "cheap" | "full";

export interface SuiteCheck {
  level: CheckLevel;
  tasks: number;
  sessions: number;
  /** The tasks whose tests were run (full), in the suite's order. */
  tested: string[];
  problems: SuiteProblem[];
}

/** A task's tests finished (full check), with its problems. */
export interface TaskChecked {
  task: string;
  problems: number;
  ms: number;
}

const DEFAULT_CONCURRENCY = 2;
const DEFAULT_TIMEOUT_MS = 900_000;

/**
 * Checks a loaded suite's ground truth: the cheap checks (`cheapSuiteProblems`), then at
 * `full` each task's tests (`tasks`: only these), `concurrency` tasks at a time, each in a
 * fresh clone: with the test patch alone every FAIL_TO_PASS fails and every PASS_TO_PASS
 * passes, with the reference patch all pass, and the test command runs every one of them.
 * An abort stops starting tasks; the ones started finish.
 */
export async function checkSuite(options: {
  suite: Suite;
  level: CheckLevel;
  tasks?: readonly string[] | undefined;
  concurrency?: number | undefined;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  onTask?: ((event: TaskChecked) => void) | undefined;
}): Promise<SuiteCheck> {
  const { suite, level, signal, onTask } = options;
  const problems = await cheapSuiteProblems(suite);
  const chosen = chooseTasks(suite, options.tasks);
  const tested: string[] = [];
  if (level === "full" && chosen.length > 0) {
    const python = await findPython().catch((error: unknown) => {
      throw error instanceof ScoreHarnessError ? new RcmError("bench-env", error.message, { cause: error }) : error;
    });
    const places = await taskPlaces(suite);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const scratch = await mkdtemp(join(tmpdir(), "rcm-check-"));
    const found = new Map<string, SuiteProblem[]>();
    // A field the cheap checks already named is not named again.
    const named = new Set(problems.map(fieldKey));
    try {
      await inParallel(chosen, options.concurrency ?? DEFAULT_CONCURRENCY, async (task) => {
        if (signal?.aborted) return;
        const started = Date.now();
        const runs = await runTaskTests({ task, repoSource: repoSource(suite, task), workDir: join(scratch, task.instance_id), python, timeoutMs });
        const at = placeOf(places, task.instance_id, join(suite.dir, "tasks"));
        const mine = testRunProblems({ task, at, runs, timeoutMs })
          .map(inPatchFile)
          .filter((problem) => !named.has(fieldKey(problem)));
        found.set(task.instance_id, mine);
        onTask?.({ task: task.instance_id, problems: mine.length, ms: Date.now() - started });
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    for (const task of chosen) {
      const mine = found.get(task.instance_id);
      if (mine === undefined) continue;
      tested.push(task.instance_id);
      problems.push(...mine);
    }
  }
  return { level, tasks: suite.tasks.length, sessions: suite.sessions.length, tested, problems };
}

/** A task folder keeps its patches as files beside task.json: a patch's problem names that file. */
function inPatchFile(problem: SuiteProblem): SuiteProblem {
  const file = problem.field === "patch" ? PATCH_FILE : problem.field === "test_patch" ? TEST_PATCH_FILE : undefined;
  if (file === undefined || basename(problem.file) !== TASK_FILE) return problem;
  return { ...problem, file: join(dirname(problem.file), file), field: "(file)" };
}

function fieldKey(problem: SuiteProblem): string {
  return `${problem.file}\u0000${problem.line}\u0000${problem.field}`;
}

function chooseTasks(suite: Suite, ids: readonly string[] | undefined): Task[] {
  if (ids === undefined) return suite.tasks;
  const known = new Set(suite.tasks.map((task) => task.instance_id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw new RcmError("usage", `--tasks: no task "${unknown}" in the suite`);
  return suite.tasks.filter((task) => ids.includes(task.instance_id));
}

/** Runs `work` on every item, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
