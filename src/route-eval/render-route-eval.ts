import type { RoutingEvaluation } from "./evaluate-routing.js";

/** The `--json` shape: exactly the documented keys. */
export function routeEvalJson(evaluation: RoutingEvaluation): string {
  const { n, accuracy, fallbackRate, confidentWrongRate, newTaskPrecision, newTaskRecall } = evaluation.metrics;
  return JSON.stringify({ n, accuracy, fallbackRate, confidentWrongRate, newTaskPrecision, newTaskRecall });
}

/** A human-readable report: the metrics, then every wrong decision with its reason. */
export function renderRouteEval(evaluation: RoutingEvaluation, options: { verbose?: boolean } = {}): string {
  const { metrics } = evaluation;
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const lines = [
    `route-eval: ${evaluation.router} router, threshold ${evaluation.threshold}, ${evaluation.sessions} sessions, ${metrics.n} requests`,
    `  accuracy              ${percent(metrics.accuracy)}`,
    `  fallback rate         ${percent(metrics.fallbackRate)}   (confidence < ${evaluation.threshold}: full history kept)`,
    `  confident-wrong rate  ${percent(metrics.confidentWrongRate)}`,
    `  correct when confident ${percent(evaluation.confidentAccuracy)}`,
    `  new-task precision    ${percent(metrics.newTaskPrecision)}`,
    `  new-task recall       ${percent(metrics.newTaskRecall)}`,
  ];
  const shown = evaluation.requests.filter((request) => options.verbose || !request.correct);
  if (shown.length > 0) {
    lines.push("", options.verbose ? "decisions:" : "wrong decisions:");
    for (const request of shown) {
      const mark = request.correct ? " " : request.confidence >= evaluation.threshold ? "!" : "x";
      lines.push(
        `${mark} ${request.session}#${request.index} gold=${request.gold} got=${request.opened ? "new" : request.predicted} conf=${request.confidence.toFixed(2)} ${request.reason}`,
      );
    }
  }
  return lines.join("\n");
}
