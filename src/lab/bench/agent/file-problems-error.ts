import type { z } from "zod";
import { type InputLocation, RcmError } from "../../../kit/errors/rcm-error.js";

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
 * line each, so a researcher fixes the file in one pass. `hint` (who reads the file, where its
 * format is written down) ends the message. `location` is the first problem's, `locations` all.
 */
export class FileProblemsError extends RcmError {
  override name = "FileProblemsError";
  /** Every problem of the file, in the order the message lists them. */
  readonly locations: readonly InputLocation[];

  constructor(options: { file: string; problems: readonly FieldProblem[]; hint?: string | undefined; cause?: unknown }) {
    const { file, hint, cause } = options;
    const problems = options.problems.length > 0 ? options.problems : [{ field: "(file)", problem: "invalid" }];
    const locations = problems.map((item) => ({ file, line: 0, field: item.field, problem: item.problem }));
    const body =
      problems.length === 1
        ? `${file}: ${locations[0]?.field}: ${locations[0]?.problem}`
        : `${file}: ${problems.length} problems\n${problems.map((item) => `  ${item.field}: ${item.problem}`).join("\n")}`;
    super("suite", hint === undefined ? body : `${body}\n  ${hint}`, {
      ...(locations[0] === undefined ? {} : { location: locations[0] }),
      ...(cause === undefined ? {} : { cause }),
    });
    this.locations = locations;
  }
}

/** Who reads a suite file and where its format is written down (`docs/benchmark-formats.md#<anchor>`), for the end of its errors. */
export function formatHint(options: { anchor: string; readBy: string }): string {
  return `(read by ${options.readBy}; the format: docs/benchmark-formats.md#${options.anchor})`;
}
