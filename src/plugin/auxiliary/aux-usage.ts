import type { AuxUsage } from "../core/routing/decision.js";
import type { AuxError } from "./aux-error.js";
import type { JsonResult } from "./complete-json.js";

/** What a `completeJson` call cost, in the shape stored with decisions and record updates. */
export function auxUsageOf(result: JsonResult<unknown>): AuxUsage {
  const { calls, inputTokens, outputTokens, ms } = result.usage;
  return { calls, inputTokens, outputTokens, ms };
}

/** One line naming why the aux model's answer was not used. */
export function describeAuxError(error: AuxError): string {
  return `${error.code}: ${error.message}`;
}
