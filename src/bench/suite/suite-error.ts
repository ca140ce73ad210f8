import { CliError } from "../../cli-error.js";

/** A problem in a suite's files, located by file, line and field. */
export class SuiteError extends CliError {
  /** The file the problem is in. */
  readonly file: string;
  /** 1-based line of a JSON-lines file; 0 when the problem is not about one line. */
  readonly line: number;
  /** Dotted path of the field (`schedule.3.stage`), or `(line)` / `(file)` for the whole line or file. */
  readonly field: string;
  /** What is wrong, without the location. */
  readonly problem: string;

  constructor(options: { file: string; line: number; field: string; problem: string; cause?: unknown }) {
    const where = options.line === 0 ? options.file : `${options.file}:${options.line}`;
    super(`${where}: ${options.field}: ${options.problem}`, { code: "suite", cause: options.cause });
    this.name = "SuiteError";
    this.file = options.file;
    this.line = options.line;
    this.field = options.field;
    this.problem = options.problem;
  }
}
