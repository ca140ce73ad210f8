import { type InputLocation, RcmError } from "../../../kit/errors/rcm-error.js";

/** One problem in a suite's ground truth, located as a `suite` error is: its file, its line (0: none) and its field. */
export type SuiteProblem = InputLocation & {
  /** False for what `bench check` reports but a run can go on with (an agent.json entry no stage of the suite uses). */
  stopsRun?: false;
};

/** The problems a run refuses a suite for. */
export function runStoppers(problems: readonly SuiteProblem[]): SuiteProblem[] {
  return problems.filter((problem) => problem.stopsRun !== false);
}

/** Where a task or session is written: a task's `task.json` (line 0), or its line of a JSON-lines file. */
export interface Place {
  file: string;
  line: number;
}

/** `<file>[:<line>]: <field>: <problem>`, the form of a `suite` error's message. */
export function describeProblem(problem: SuiteProblem): string {
  const where = problem.line === 0 ? problem.file : `${problem.file}:${problem.line}`;
  return `${where}: ${problem.field}: ${problem.problem}`;
}

/** A problem at `place`'s file and line. */
export function problemAt(place: Place, field: string, problem: string): SuiteProblem {
  return { file: place.file, line: place.line, field, problem };
}

/** A `suite` error listing every problem, one a line, then `advice` (what to do) when given; located at the first problem. */
export function suiteProblemsError(problems: readonly SuiteProblem[], advice?: string): RcmError {
  const [first] = problems;
  const lines = [...problems.map(describeProblem), ...(advice === undefined ? [] : [advice])];
  return new RcmError("suite", lines.join("\n"), first === undefined ? {} : { location: first });
}
