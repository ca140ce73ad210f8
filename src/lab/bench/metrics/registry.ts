import type { ResultLine } from "../run-dir/result-line.js";
import { cacheMetric } from "./cache-cost.js";
import { focusWriteMetric } from "./focus-write.js";
import type { FinishedSession } from "./metric.js";
import { fidelityMetric } from "./received-context.js";
import { resumptionMetric } from "./resumption.js";
import { auxMetric, resumedFocusAuxMetric, resumedFocusMetric, usageMetric } from "./session-usage.js";
import { timelineMetric } from "./timeline.js";

/**
 * Every metric of a result line. Adding a metric is one module and one field, listed here:
 *   1. add its field to `ResultLineSchema` (src/lab/bench/run-dir/result-line.ts), optional if old
 *      runs lack it;
 *   2. in a module of src/lab/bench/metrics, export `metric("<field>", (session) => ...)` computing
 *      it from the `FinishedSession` (metric.ts: history, requests, plug-in state, recorded
 *      calls, checkouts...);
 *   3. list it below. run-bench.ts runs every metric listed here; nothing else changes.
 */
export const METRICS = [
  usageMetric,
  resumedFocusMetric,
  auxMetric,
  resumedFocusAuxMetric,
  timelineMetric,
  fidelityMetric,
  cacheMetric,
  focusWriteMetric,
  resumptionMetric,
] as const;

/** The result line's fields the metrics fill. */
export type MetricField = (typeof METRICS)[number]["field"];

/** Every metric's field for a finished session; one that measures undefined is left out. */
export function measureSession(session: FinishedSession): Pick<ResultLine, MetricField> {
  const fields: Record<string, unknown> = {};
  for (const metric of METRICS) {
    const value = metric.measure(session);
    if (value !== undefined) fields[metric.field] = value;
  }
  return fields as Pick<ResultLine, MetricField>;
}
