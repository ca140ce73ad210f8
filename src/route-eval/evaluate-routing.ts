import { emptyLedger, type LedgerEntry } from "../core/routing/ledger.js";
import { routeRequest } from "../core/routing/route-request.js";
import type { Router } from "../core/routing/router.js";
import { TaskIndex } from "../core/routing/task-index.js";
import { SHARED_LABEL, type LabelledSession } from "./labelled-sessions.js";

/** One routed request of the evaluation, with what the router said and what was right. */
export interface EvaluatedRequest {
  session: string;
  index: number;
  gold: string;
  /** The gold label the router's task stands for (that of the request that opened it). */
  predicted: string;
  opened: boolean;
  shared: boolean;
  confidence: number;
  correct: boolean;
  reason: string;
}

export interface RoutingMetrics {
  n: number;
  accuracy: number;
  /** Share of decisions below the threshold (full history kept). */
  fallbackRate: number;
  /** Share of decisions at or above the threshold that were wrong (of all n). */
  confidentWrongRate: number;
  newTaskPrecision: number;
  newTaskRecall: number;
}

export interface RoutingEvaluation {
  router: string;
  threshold: number;
  sessions: number;
  metrics: RoutingMetrics;
  /** Correct share among decisions at or above the threshold. */
  confidentAccuracy: number;
  requests: EvaluatedRequest[];
}

/**
 * Runs a router online over labelled sessions: each decision sees only the earlier
 * requests (with the files their work touched) and the router's own earlier decisions.
 */
export async function evaluateRouting(options: {
  sessions: readonly LabelledSession[];
  router: Router;
  threshold: number;
}): Promise<RoutingEvaluation> {
  const requests: EvaluatedRequest[] = [];
  for (const session of options.sessions) requests.push(...(await evaluateSession(session, options.router)));
  return {
    router: options.router.name,
    threshold: options.threshold,
    sessions: options.sessions.length,
    metrics: metricsOf(requests, options.threshold),
    confidentAccuracy: ratio(
      requests.filter((request) => request.confidence >= options.threshold && request.correct).length,
      requests.filter((request) => request.confidence >= options.threshold).length,
    ),
    requests,
  };
}

async function evaluateSession(session: LabelledSession, router: Router): Promise<EvaluatedRequest[]> {
  let ledger = emptyLedger();
  const index = new TaskIndex();
  /** Router task id -> gold label of the request that opened it. */
  const labelOf = new Map<string, string>();
  const results: EvaluatedRequest[] = [];
  for (const [position, request] of session.requests.entries()) {
    const messageID = `${session.id}#${position + 1}`;
    const routed = await routeRequest({ router, ledger, index, messageID, text: request.text });
    ledger = routed.ledger;
    const entry: LedgerEntry = routed.entry;
    const existingLabels = new Set(labelOf.values());
    if (entry.opened) labelOf.set(routed.task.id, request.task);
    const predicted = labelOf.get(routed.task.id) ?? "?";
    const correct =
      request.task === SHARED_LABEL
        ? entry.shared
        : !entry.shared && (entry.opened ? !existingLabels.has(request.task) : predicted === request.task);
    results.push({
      session: session.id,
      index: position + 1,
      gold: request.task,
      predicted: entry.shared ? SHARED_LABEL : predicted,
      opened: entry.opened,
      shared: entry.shared,
      confidence: entry.confidence,
      correct,
      reason: entry.reason,
    });
    // The work's evidence arrives after the decision, as tool calls do in a real session.
    if (entry.shared) index.countRequest();
    else {
      index.addEvidence(routed.task.id, {
        text: request.text,
        ...(request.files ? { paths: request.files } : {}),
        ...(request.workspace ? { workspaces: [request.workspace] } : {}),
      });
    }
  }
  return results;
}

function metricsOf(requests: readonly EvaluatedRequest[], threshold: number): RoutingMetrics {
  const n = requests.length;
  const seen = new Map<string, Set<string>>();
  let opensGold = 0;
  let opensGoldFound = 0;
  for (const request of requests) {
    const labels = seen.get(request.session) ?? new Set<string>();
    seen.set(request.session, labels);
    const firstOfTask = request.gold !== SHARED_LABEL && !labels.has(request.gold);
    if (firstOfTask) {
      opensGold += 1;
      if (request.opened && !request.shared) opensGoldFound += 1;
    }
    if (request.gold !== SHARED_LABEL) labels.add(request.gold);
  }
  const opened = requests.filter((request) => request.opened && !request.shared);
  return {
    n,
    accuracy: ratio(requests.filter((request) => request.correct).length, n),
    fallbackRate: ratio(requests.filter((request) => request.confidence < threshold).length, n),
    confidentWrongRate: ratio(requests.filter((request) => request.confidence >= threshold && !request.correct).length, n),
    newTaskPrecision: ratio(opened.filter((request) => request.correct).length, opened.length),
    newTaskRecall: ratio(opensGoldFound, opensGold),
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000;
}
