/**
 * The one error type the CLI prints as a single line (no stack): a problem the user can fix,
 * with a stable code for scripts and the process's exit status. Modules throw their own
 * subclasses (a suite file's problem, a missing Docker image...) so callers can still tell
 * them apart; anything else is a bug, printed with its message and exit status 1.
 */
export class CliError extends Error {
  /** Stable, kebab-case: `usage`, `suite`, `bench-env`... */
  readonly code: string;
  /** 2 for a problem in the input or the environment, as for usage errors. */
  readonly exitCode: number;
  /** Print the usage after the message. */
  readonly showUsage: boolean;

  constructor(message: string, options: { code: string; exitCode?: number; showUsage?: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.exitCode = options.exitCode ?? 2;
    this.showUsage = options.showUsage ?? false;
  }
}

/** A mistake in how a command was called: printed with the usage, exit status 2. */
export class UsageError extends CliError {
  override name = "UsageError";
  constructor(message: string) {
    super(message, { code: "usage", showUsage: true });
  }
}
