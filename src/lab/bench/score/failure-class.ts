import type { TaskReport } from "./score-task.js";

/** Where a focus task ended up, as Switch-SWE classifies failures. */
export type FailureClass = "resolved" | "implementation" | "submission" | "incomplete";

/**
 * `incomplete` when the session ran out of budget, errored or never finalized; `submission`
 * when there is no score, no patch, or the patch did not apply; `implementation` when it
 * applied but did not resolve the task; `resolved` otherwise.
 */
export function failureClass(options: { finalized: boolean; errored: boolean; budgetExhausted: boolean; report?: TaskReport | undefined }): FailureClass {
  const { finalized, errored, budgetExhausted, report } = options;
  if (budgetExhausted || errored || !finalized) return "incomplete";
  if (report === undefined || !report.patch_exists || !report.patch_successfully_applied) return "submission";
  if (!report.resolved) return "implementation";
  return "resolved";
}
