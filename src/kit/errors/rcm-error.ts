/**
 * Every problem the user can fix, by code: the code is printed after the message
 * ("opencode-rcm: <problem> (<code>)") and stays stable for scripts; `exitCode` is the
 * process's exit status; `showUsage` adds the hint to the command's help after the message.
 * The CLI's help lists these codes from here.
 */
export const ERROR_CODES = {
  usage: { exitCode: 2, showUsage: true },
  suite: { exitCode: 2, showUsage: false },
  run: { exitCode: 2, showUsage: false },
  results: { exitCode: 2, showUsage: false },
  merge: { exitCode: 2, showUsage: false },
  "bench-env": { exitCode: 2, showUsage: false },
  "provider-config": { exitCode: 2, showUsage: false },
  "opencode-not-found": { exitCode: 2, showUsage: false },
  "labelled-sessions": { exitCode: 2, showUsage: false },
  "requirement-set": { exitCode: 2, showUsage: false },
  "route-eval-setup": { exitCode: 2, showUsage: false },
  "memory-eval-setup": { exitCode: 2, showUsage: false },
  "swebench-reports": { exitCode: 2, showUsage: false },
  corpus: { exitCode: 2, showUsage: false },
  session: { exitCode: 2, showUsage: false },
  /** A bug, not the user's problem: printed with its message (and its stack under OPENCODE_RCM_DEBUG=1). */
  internal: { exitCode: 1, showUsage: false },
} as const satisfies Record<string, { exitCode: number; showUsage: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Where in an input file a problem is, for errors about a file's content (a suite, a labelled set). */
export interface InputLocation {
  /** The file the problem is in. */
  file: string;
  /** 1-based line of a JSON-lines file; 0 when the problem is not about one line. */
  line: number;
  /** Dotted path of the field (`schedule.3.stage`), or `(line)` / `(file)` for the whole line or file. */
  field: string;
  /** What is wrong, without the location. */
  problem: string;
}

/**
 * The one error type the CLI prints as a single line (no stack): a problem the user can fix,
 * with a stable code (which gives the exit status). Anything else that reaches the CLI is a
 * bug, printed as `internal` with its message and exit status 1.
 */
export class RcmError extends Error {
  override name = "RcmError";
  readonly code: ErrorCode;
  /** Where in an input file the problem is, when it is about one. */
  readonly location: InputLocation | undefined;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; location?: InputLocation } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.location = options.location;
  }

  /** 2 for a problem in the input or the environment, 1 for an internal error. */
  get exitCode(): number {
    return ERROR_CODES[this.code].exitCode;
  }

  /** Print the hint to the command's help after the message. */
  get showUsage(): boolean {
    return ERROR_CODES[this.code].showUsage;
  }
}
