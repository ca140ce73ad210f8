/** Why the scorer could not produce a score (a problem of the harness or the task, not of the patch). */
export type ScoreHarnessErrorReason =
  /** No interpreter that can `import pytest` was found. */
  | "python-not-found"
  /** A git command the scorer relies on failed (clone, checkout, diff). */
  | "git-failed"
  /** The task's held-out test patch did not apply on top of the base commit and the model patch. */
  | "test-patch-did-not-apply";

/** The scorer could not score: the environment or the task is broken, whatever the patch. */
export class ScoreHarnessError extends Error {
  readonly reason: ScoreHarnessErrorReason;
  /** What was being done, with its output (git's stderr, the interpreters tried). */
  readonly detail: string;

  constructor(options: { reason: ScoreHarnessErrorReason; message: string; detail?: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ScoreHarnessError";
    this.reason = options.reason;
    this.detail = options.detail ?? "";
  }
}
