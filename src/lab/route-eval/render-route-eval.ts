import type { EvaluatedRequest, RoutingEvaluation } from "./evaluate-routing.js";
import type { ResumeCounts, ResumeFigures } from "./resume-figures.js";

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
    // Only for sessions that list earlier sessions: other files' output stays as it was.
    ...(evaluation.resume
      ? {
          resume: {
            ...evaluation.resume,
            byStyle: Object.fromEntries(evaluation.resume.byStyle.map(({ style, ...counts }) => [style, counts])),
            byRegister: Object.fromEntries(evaluation.resume.byRegister.map(({ register, ...counts }) => [register, counts])),
          },
        }
      : {}),
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
  if (evaluation.resume) lines.push(...resumeLines(evaluation.resume));
  const shown = evaluation.requests.filter((request) => options.verbose || !request.correct);
  if (shown.length > 0) {
    lines.push("", options.verbose ? "decisions:" : "wrong decisions (! confident, x below the threshold):");
    for (const request of shown) {
      const mark = request.correct ? " " : request.confidence >= evaluation.threshold ? "!" : "x";
      const kind = request.mistake ? ` [${request.mistake}]` : "";
      lines.push(
        `${mark} ${request.session}#${request.index} gold=${request.gold} got=${request.resume?.resumed ? `resumed ${request.predicted}` : request.opened ? "new" : request.predicted} conf=${request.confidence.toFixed(2)}${kind} ${request.reason}`,
      );
    }
  }
  const resumeShown = evaluation.requests.filter((request) => request.resume && (options.verbose || resumeMistake(request) !== undefined));
  if (resumeShown.length > 0) {
    lines.push("", options.verbose ? "resumption decisions:" : "resumptions wrong or missed (W resumed another task, M missed, o offered):");
    for (const request of resumeShown) {
      const resume = request.resume as NonNullable<EvaluatedRequest["resume"]>;
      const got = resume.resumed
        ? `resumed=${resume.resumed}`
        : resume.offered
          ? `offered=${resume.offered}`
          : resume.sureOf
            ? `not asked (sure of ${resume.sureOf})`
            : "nothing named";
      lines.push(
        `${resumeMistake(request) ?? " "} ${request.session}#${request.index} ${request.style ?? ""} gold=${resume.gold ?? "new"}${resume.opens ? " (resumption)" : ""} ${got}${resume.why ? ` (${resume.why})` : ""}`,
      );
    }
  }
  return lines.join("\n");
}

/** W: resumed a task its gold is not; M: a gold resumption that resumed nothing. */
function resumeMistake(request: EvaluatedRequest): "W" | "M" | undefined {
  const resume = request.resume;
  if (!resume) return undefined;
  if (resume.resumed !== undefined && resume.resumed !== resume.gold) return "W";
  if (resume.gold !== undefined && resume.opens && resume.resumed === undefined) return "M";
  return undefined;
}

function resumeLines(figures: ResumeFigures): string[] {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const named = figures.rightWhenNamed;
  const wrongStyles = figures.byStyle.filter((style) => style.resumedWrong > 0).map((style) => `${style.style} ${style.resumedWrong}`);
  const row = (name: string, counts: ResumeCounts, extra = "") =>
    `    ${name.padEnd(20)} ${String(counts.n).padStart(5)}  ${String(counts.resumptions).padStart(11)}  ${`${counts.resumedRight} (${percent(counts.rightRate)})`.padStart(13)}  ${`${counts.missed} (${counts.missedOffered})`.padStart(16)}  ${`${counts.resumedWrong} (${percent(counts.wrongRate)})`.padStart(12)}  ${String(counts.offeredWrong).padStart(13)}${extra}`;
  const header = "n  resumptions  resumed right  missed (offered)  wrong (of n)  offered wrong";
  return [
    `  resuming earlier sessions' tasks: ${figures.days} days, ${figures.candidates} unfinished earlier tasks as candidates, ${figures.n} requests`,
    `    resumed right          ${figures.resumedRight} of ${figures.resumptions} resumptions (${percent(figures.rightRate)}); when the request names its task (file, code name, phrase, title): ${named.resumedRight} of ${named.resumptions} (${percent(named.rate)})`,
    `    resumed wrong          ${figures.resumedWrong} (${percent(figures.wrongRate)} of requests: another task's record brought in)${wrongStyles.length > 0 ? `; by style: ${wrongStyles.join(", ")}` : ""}`,
    `    missed                 ${figures.missed} (nothing brought in; ${figures.missedOffered} of them offered the right task, ${figures.missedSure} not asked: the session's routing was sure of one of its own tasks)`,
    `    offered wrong          ${figures.offeredWrong}   resumed late (the right task, after its first request) ${figures.resumedLate}`,
    `  resuming by style        ${header}`,
    ...figures.byStyle.map((style) => row(style.style, style)),
    `  resuming by register     ${header}  right when named`,
    ...figures.byRegister.map((register) => row(register.register, register, `  ${percent(register.rightWhenNamed).padStart(15)}`)),
    ...(figures.worstRegister
      ? [`    worst register: ${figures.worstRegister.wrong} (wrong resumptions), ${figures.worstRegister.rightWhenNamed} (right when named)`]
      : []),
  ];
}
