import type { RoutingEvaluation } from "./evaluate-routing.js";

/** The `--json` shape: the documented keys, the original six first. */
export function routeEvalJson(evaluation: RoutingEvaluation): string {
  const { n, accuracy, fallbackRate, confidentWrongRate, newTaskPrecision, newTaskRecall } = evaluation.metrics;
  const { harmfulConfidentWrongRate, mergeConfidentWrongRate, expectedCalibrationError } = evaluation.metrics;
  return JSON.stringify({
    n,
    accuracy,
    fallbackRate,
    confidentWrongRate,
    newTaskPrecision,
    newTaskRecall,
    harmfulConfidentWrongRate,
    mergeConfidentWrongRate,
    expectedCalibrationError,
    confidentAccuracy: evaluation.confidentAccuracy,
    modelCalls: evaluation.modelCalls,
    relabelled: evaluation.relabelled,
    candidateFallback: evaluation.candidateFallback,
    byShape: Object.fromEntries(evaluation.byShape.map(({ shape, ...metrics }) => [shape, metrics])),
    byStyle: Object.fromEntries(evaluation.byStyle.map(({ style, ...metrics }) => [style, metrics])),
    narrowedRight: evaluation.metrics.narrowedRight,
    narrowedCalls: evaluation.metrics.narrowedCalls,
    byKind: Object.fromEntries(evaluation.byKind.map(({ kind, ...metrics }) => [kind, metrics])),
    reliability: evaluation.reliability.bins,
  });
}

/** A human-readable report: the metrics, then every wrong decision with its reason. */
export function renderRouteEval(evaluation: RoutingEvaluation, options: { verbose?: boolean } = {}): string {
  const { metrics } = evaluation;
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const lines = [
    `route-eval: ${evaluation.router} router, threshold ${evaluation.threshold}, ${evaluation.sessions} sessions, ${metrics.n} requests`,
    `  narrowed right           ${percent(metrics.narrowedRight)}   (after each session's first request: sure and right, the call narrowed to its own task)`,
    `  accuracy                 ${percent(metrics.accuracy)}`,
    `  fallback rate            ${percent(metrics.fallbackRate)}   (confidence < ${evaluation.threshold}: full history kept)`,
    `  confident-wrong rate     ${percent(metrics.confidentWrongRate)}`,
    `    harmful                ${percent(metrics.harmfulConfidentWrongRate)}   (the right task's earlier history hidden)`,
    `    merge                  ${percent(metrics.mergeConfidentWrongRate)}   (a new task folded into an existing one)`,
    `  correct when confident   ${percent(evaluation.confidentAccuracy)}`,
    `  narrowed calls           ${metrics.narrowedCalls.n}: ${percent(metrics.narrowedCalls.carriedOther)} carried another task's request, ${percent(metrics.narrowedCalls.missedOwn)} left out one of their own`,
    `  calibration error (ECE)  ${metrics.expectedCalibrationError.toFixed(3)}`,
    `  new-task precision       ${percent(metrics.newTaskPrecision)}`,
    `  new-task recall          ${percent(metrics.newTaskRecall)}`,
    `  relabelled by their work ${evaluation.relabelled}   (edits only in another task's files: later routing follows them)`,
    `  fallback: candidates     coverage ${percent(evaluation.candidateFallback.coverage)}, other tasks' history kept ${percent(evaluation.candidateFallback.othersKept)}   (of ${evaluation.candidateFallback.decisions} unsure decisions; full: 100%, 100%)`,
  ];
  if (evaluation.router !== "lexical") {
    const saved = metrics.n - evaluation.modelCalls;
    lines.push(
      `  model asked              ${evaluation.modelCalls} of ${metrics.n} requests (${saved} aux calls saved, ${percent(metrics.n === 0 ? 0 : saved / metrics.n)})`,
    );
  }
  for (const shape of evaluation.byShape) {
    lines.push(
      `  ${`${shape.shape} (${shape.sessions} sessions, ${shape.n} requests)`.padEnd(36)} accuracy ${percent(shape.accuracy)}, fallback ${percent(shape.fallbackRate)}, confident-wrong ${percent(shape.confidentWrongRate)} (harmful ${percent(shape.harmfulConfidentWrongRate)})`,
    );
  }
  if (evaluation.byStyle.length > 0) {
    lines.push("  by style                       n  narrowed right  accuracy  fallback  harmful  merge  new-task prec.  ECE");
    for (const style of evaluation.byStyle) {
      const cells = [percent(style.accuracy), percent(style.fallbackRate), percent(style.harmfulConfidentWrongRate), percent(style.mergeConfidentWrongRate)];
      const precision =
        style.newTaskPrecision === 0 && !evaluation.requests.some((request) => request.style === style.style && request.opened)
          ? "-"
          : percent(style.newTaskPrecision);
      lines.push(
        `    ${style.style.padEnd(24)} ${String(style.n).padStart(5)}  ${percent(style.narrowedRight).padStart(14)}  ${cells[0]?.padStart(8)}  ${cells[1]?.padStart(8)}  ${cells[2]?.padStart(7)}  ${cells[3]?.padStart(5)}  ${precision.padStart(14)}  ${style.expectedCalibrationError.toFixed(3)}`,
      );
    }
  }
  lines.push("  by kind                        n  narrowed right  fallback  harmful  merge");
  for (const kind of evaluation.byKind) {
    const cells = [percent(kind.narrowedRight), percent(kind.fallbackRate), percent(kind.harmfulConfidentWrongRate), percent(kind.mergeConfidentWrongRate)];
    lines.push(
      `    ${kind.kind.padEnd(24)} ${String(kind.n).padStart(5)}  ${cells[0]?.padStart(14)}  ${cells[1]?.padStart(8)}  ${cells[2]?.padStart(7)}  ${cells[3]?.padStart(5)}`,
    );
  }
  lines.push("  reliability (confidence bin: decisions, mean confidence, share right)");
  for (const bin of evaluation.reliability.bins) {
    if (bin.count === 0) continue;
    lines.push(`    ${bin.from.toFixed(1)}-${bin.to.toFixed(1)}: ${String(bin.count).padStart(5)}  ${bin.confidence.toFixed(3)}  ${bin.accuracy.toFixed(3)}`);
  }
  const shown = evaluation.requests.filter((request) => options.verbose || !request.correct);
  if (shown.length > 0) {
    lines.push("", options.verbose ? "decisions:" : "wrong decisions (! confident, x below the threshold):");
    for (const request of shown) {
      const mark = request.correct ? " " : request.confidence >= evaluation.threshold ? "!" : "x";
      const kind = request.mistake ? ` [${request.mistake}]` : "";
      lines.push(
        `${mark} ${request.session}#${request.index} gold=${request.gold} got=${request.opened ? "new" : request.predicted} conf=${request.confidence.toFixed(2)}${kind} ${request.reason}`,
      );
    }
  }
  return lines.join("\n");
}
