import type { z } from "zod";
import { type InputLocation, RcmError } from "../../errors/rcm-error.js";

/** One problem in a file: the dotted field (`tasks.t1.stages.s1.request`, `0.shared`, `(file)`) and what is wrong with it. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/** Every issue of a failed zod parse as a field problem; an unknown key is named as its own field. */
export function zodProblems(error: z.ZodError): FieldProblem[] {
  const problems = error.issues.flatMap((issue): FieldProblem[] => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ field: [...path, key].join("."), problem: `unknown field "${key}"` }));
    return [{ field: path.join(".") || "(file)", problem: issue.message }];
  });
  return problems.length > 0 ? problems : [{ field: "(file)", problem: "invalid" }];
}

/**
 * A `suite` RcmError for all the problems of one file at once: one problem reads as
 * `<file>: <field>: <problem>`, several as `<file>: N problems` then one `  <field>: <problem>`
 * line each, so a researcher fixes the file in one pass. `hint` (where the format is written
 * down) ends the message; the location is the first problem's.
 */
export function fileProblemsError(options: { file: string; problems: readonly FieldProblem[]; hint?: string; cause?: unknown }): RcmError {
  const { file, problems, hint, cause } = options;
  const first = problems[0] ?? { field: "(file)", problem: "invalid" };
  const location: InputLocation = { file, line: 0, field: first.field, problem: first.problem };
  const body =
    problems.length <= 1
      ? `${file}: ${first.field}: ${first.problem}`
      : `${file}: ${problems.length} problems\n${problems.map((item) => `  ${item.field}: ${item.problem}`).join("\n")}`;
  const message = hint === undefined ? body : `${body}\n  ${hint}`;
  return new RcmError("suite", message, { location, ...(cause === undefined ? {} : { cause }) });
}

/** Who reads a suite file and where its format is written down (`docs/benchmark-formats.md#<anchor>`), for the end of its errors. */
export function formatHint(options: { anchor: string; readBy: string }): string {
  return `(read by ${options.readBy}; the format: docs/benchmark-formats.md#${options.anchor})`;
}
