import type { PytestStatus } from "./parse-pytest.js";

/** SWE-bench's rule: a test passes if PASSED or XFAIL; FAILED, ERROR, SKIPPED, XPASS or missing is not a pass. */
export function isPytestPass(status: PytestStatus | undefined): boolean {
  return status === "PASSED" || status === "XFAIL";
}
