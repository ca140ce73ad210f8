import { editVerdict } from "../../plugin/core/routing/edit-evidence.js";
import { confirmRequest, emptyLedger, isSettled, type LedgerEntry, relabelRequest } from "../../plugin/core/routing/ledger.js";
import { routeRequest } from "../../plugin/core/routing/route-request.js";
import type { Router } from "../../plugin/core/routing/router.js";
import { TaskIndex } from "../../plugin/core/routing/task-index.js";
import { type LabelledSession, type SessionShape, SHARED_LABEL, shapeOf } from "./labelled-sessions.js";
import { type Reliability, reliabilityOf } from "./reliability.js";

/**
 * What a wrong decision costs. `harmful`: the gold task's earlier history is hidden (a
 * wrong existing task, or "new" for a known task). `merge`: a new task folded into an
 * existing one (costs tokens, hides nothing the new task had). `shared`: a shared
 * instruction kept by one task only, or a task's request taken for one meant for all.
 */
export type MistakeKind = "harmful" | "merge" | "shared";

/** One routed request of the evaluation, with what the router said and what was right. */
export interface EvaluatedRequest {
  session: string;
  shape: SessionShape;
  /** How the request is written, where its session says (generated and style-labelled sets). */
  style?: string;
  index: number;
  gold: string;
  /** The gold says this request opens its task (its label's first request). */
  opensGold: boolean;
  /** The gold label the router's task stands for (that of the request that opened it). */
  predicted: string;
  /** The router's task id the request was routed to (its best guess when unsure), as a cluster of a disentanglement. */
  task: string;
  opened: boolean;
  shared: boolean;
  confidence: number;
  correct: boolean;
  mistake?: MistakeKind;
  /** True when the router asked its model for this request. */
  askedModel: boolean;
  /**
   * Below the threshold (not shared), what `fallback: "candidates"` would keep: whether the
   * gold task's history is all kept, and of the earlier requests of other tasks how many.
   */
  candidates?: { covered: boolean; others: number; othersKept: number };
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
  /** Confident and wrong, and the gold task's earlier history hidden (of all n). */
  harmfulConfidentWrongRate: number;
  /** Confident, and a new task folded into an existing one (of all n). */
  mergeConfidentWrongRate: number;
  /** Expected calibration error over ten equal-width confidence bins. */
  expectedCalibrationError: number;
}

export interface ShapeMetrics {
  shape: SessionShape;
  sessions: number;
  n: number;
  accuracy: number;
  fallbackRate: number;
  confidentWrongRate: number;
  harmfulConfidentWrongRate: number;
}

/** One writing style's figures (the request's `style`), so the worst style shows, not only the mean. */
export interface StyleMetrics extends RoutingMetrics {
  style: string;
}

export interface RoutingEvaluation {
  router: string;
  threshold: number;
  sessions: number;
  metrics: RoutingMetrics;
  /** Correct share among decisions at or above the threshold. */
  confidentAccuracy: number;
  byShape: ShapeMetrics[];
  /** Per style, in the order styles first occur; empty when no request names its style. */
  byStyle: StyleMetrics[];
  reliability: Reliability;
  /** Requests on which the router asked its model (0 for the lexical router). */
  modelCalls: number;
  /** Requests whose work's files moved them to another task after the decision (for later routing). */
  relabelled: number;
  /**
   * `fallback: "candidates"` against `full` on the decisions below the threshold: the share
   * whose gold task's history is all kept (full: 1), and the share of other tasks' earlier
   * requests kept (full: 1).
   */
  candidateFallback: { decisions: number; coverage: number; othersKept: number };
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
  /** How a request's task ids (`t3`) read: as the panel showed the router's tasks (the default), or as written. */
  ids?: TaskIds;
}): Promise<RoutingEvaluation> {
  const { threshold } = options;
  const ids = options.ids ?? "shown";
  const requests: EvaluatedRequest[] = [];
  let relabelled = 0;
  for (const session of options.sessions) {
    const evaluated = await evaluateSession(session, options.router, threshold, ids);
    requests.push(...evaluated.requests);
    relabelled += evaluated.relabelled;
  }
  const shapes = (["switch", "everyday"] as const).filter((shape) => requests.some((request) => request.shape === shape));
  return {
    router: options.router.name,
    threshold,
    sessions: options.sessions.length,
    metrics: metricsOf(requests, threshold),
    confidentAccuracy: ratio(
      requests.filter((request) => request.confidence >= threshold && request.correct).length,
      requests.filter((request) => request.confidence >= threshold).length,
    ),
    byShape: shapes.map((shape) => {
      const subset = requests.filter((request) => request.shape === shape);
      const metrics = metricsOf(subset, threshold);
      return {
        shape,
        sessions: options.sessions.filter((session) => shapeOf(session) === shape).length,
        n: metrics.n,
        accuracy: metrics.accuracy,
        fallbackRate: metrics.fallbackRate,
        confidentWrongRate: metrics.confidentWrongRate,
        harmfulConfidentWrongRate: metrics.harmfulConfidentWrongRate,
      };
    }),
    byStyle: [...new Set(requests.flatMap((request) => (request.style === undefined ? [] : [request.style])))].map((style) => ({
      style,
      ...metricsOf(
        requests.filter((request) => request.style === style),
        threshold,
      ),
    })),
    reliability: reliabilityOf(requests),
    modelCalls: requests.filter((request) => request.askedModel).length,
    candidateFallback: candidateFallbackOf(requests),
    relabelled,
    requests,
  };
}

/**
 * `written`: ids as the sessions' writers numbered the gold tasks (t1 = the first task to
 * appear), which is what the plug-in shows only while it opens exactly the user's tasks.
 * `shown`: each `tN` is read as the id the plug-in showed for that gold task (the task its
 * latest request went to), as a user who reads the panel would type it.
 */
export const TASK_IDS = ["shown", "written"] as const;
export type TaskIds = (typeof TASK_IDS)[number];

const WRITTEN_ID = /(?<![\w./-])t([1-9]\d{0,2})(?![\w-]|\.\w)/g;

/** The request as the user would have written it after reading the panel: gold-order ids replaced by the router's. */
function withShownIds(text: string, goldOrder: readonly string[], shownID: ReadonlyMap<string, string>): string {
  return text.replace(WRITTEN_ID, (written, number: string) => shownID.get(goldOrder[Number(number) - 1] ?? "") ?? written);
}

async function evaluateSession(
  session: LabelledSession,
  router: Router,
  threshold: number,
  ids: TaskIds,
): Promise<{ requests: EvaluatedRequest[]; relabelled: number }> {
  let ledger = emptyLedger();
  const index = new TaskIndex();
  const shape = shapeOf(session);
  /** Router task id -> gold label of the request that opened it. */
  const labelOf = new Map<string, string>();
  /** Gold label -> the router tasks its earlier requests went to (where its history is). */
  const homesOf = new Map<string, Set<string>>();
  const results: EvaluatedRequest[] = [];
  /** Gold labels of the requests so far: a label's first request opens its task. */
  const goldSeen = new Set<string>();
  let relabelled = 0;
  /** Gold labels in the order they first appear (what the writers' `t1`, `t2` count), and the router task each was last seen in. */
  const goldOrder: string[] = [];
  const shownID = new Map<string, string>();
  const ownID = new Set<string>();
  /** Where each earlier request of a task went (after its edits settled it). */
  const earlier: { label: string; home: string }[] = [];
  for (const [position, request] of session.requests.entries()) {
    const messageID = `${session.id}#${position + 1}`;
    const text = ids === "shown" ? withShownIds(request.text, goldOrder, shownID) : request.text;
    const routed = await routeRequest({ router, ledger, index, messageID, text, threshold });
    ledger = routed.ledger;
    const entry: LedgerEntry = routed.entry;
    const existingLabels = new Set(labelOf.values());
    if (entry.opened) labelOf.set(routed.task.id, request.task);
    const predicted = labelOf.get(routed.task.id) ?? "?";
    const sharedGold = request.task === SHARED_LABEL;
    const correct = sharedGold ? entry.shared : !entry.shared && (entry.opened ? !existingLabels.has(request.task) : predicted === request.task);
    const mistake = correct ? undefined : mistakeOf({ entry, gold: request.task, homes: homesOf.get(request.task) });
    const candidates =
      entry.shared || sharedGold || entry.confidence >= threshold ? undefined : keptByCandidates(entry, homesOf.get(request.task), earlier, request.task);
    results.push({
      session: session.id,
      shape,
      ...(request.style === undefined ? {} : { style: request.style }),
      index: position + 1,
      gold: request.task,
      opensGold: !sharedGold && !goldSeen.has(request.task),
      predicted: entry.shared ? SHARED_LABEL : predicted,
      task: routed.task.id,
      opened: entry.opened,
      shared: entry.shared,
      confidence: entry.confidence,
      correct,
      ...(mistake && entry.confidence >= threshold ? { mistake } : {}),
      askedModel: entry.aux !== undefined,
      ...(candidates ? { candidates } : {}),
      reason: entry.reason,
    });
    goldSeen.add(request.task);
    // The work's files arrive after the decision, as tool calls do: they may settle an unsure
    // decision (relabel it to the task whose files they all are, or bear it out), as the
    // plug-in does once the turn ends. Only a settled decision is evidence for later routing.
    let home = routed.task.id;
    const verdict =
      entry.shared || !request.files || isSettled(entry, threshold)
        ? undefined
        : editVerdict({ routedTo: home, opened: entry.opened, edited: request.files, ownersOf: (path) => ownersIn(index, path, request.workspace) });
    if (verdict?.kind === "relabel" && request.files) {
      ledger = relabelRequest(ledger, messageID, { task: verdict.task, files: request.files });
      home = verdict.task;
      relabelled += 1;
    } else if (verdict?.kind === "confirm" && request.files) ledger = confirmRequest(ledger, messageID, request.files);
    const settled = verdict !== undefined || isSettled(entry, threshold);
    if (!sharedGold) {
      if (!goldOrder.includes(request.task)) goldOrder.push(request.task);
      // A task opened by its own first request keeps that id on the panel; until then the user sees where its requests went.
      if (!entry.shared) earlier.push({ label: request.task, home });
      if (!entry.shared && !ownID.has(request.task)) {
        shownID.set(request.task, home);
        if (entry.opened && home === routed.task.id && !existingLabels.has(request.task)) ownID.add(request.task);
      }
    }
    if (!sharedGold && !entry.shared) {
      const homes = homesOf.get(request.task) ?? new Set<string>();
      homes.add(home);
      homesOf.set(request.task, homes);
    }
    if (entry.shared) index.countRequest();
    else if (settled) {
      index.current = home;
      index.addEvidence(home, {
        text,
        ...(request.files ? { paths: request.files } : {}),
        ...(request.workspace ? { workspaces: [request.workspace] } : {}),
      });
    }
  }
  return { requests: results, relabelled };
}

/** What the candidates of an unsure decision keep (no candidates: every task, as `full`). */
function keptByCandidates(
  entry: LedgerEntry,
  goldHomes: ReadonlySet<string> | undefined,
  earlier: readonly { label: string; home: string }[],
  gold: string,
): NonNullable<EvaluatedRequest["candidates"]> {
  const kept = entry.candidates === undefined ? undefined : new Set([...entry.candidates, ...entry.related]);
  const others = earlier.filter((request) => request.label !== gold);
  return {
    covered: kept === undefined || goldHomes === undefined || [...goldHomes].every((home) => kept.has(home)),
    others: others.length,
    othersKept: kept === undefined ? others.length : others.filter((request) => kept.has(request.home)).length,
  };
}

function candidateFallbackOf(requests: readonly EvaluatedRequest[]): RoutingEvaluation["candidateFallback"] {
  const unsure = requests.flatMap((request) => (request.candidates ? [request.candidates] : []));
  const others = unsure.reduce((sum, kept) => sum + kept.others, 0);
  return {
    decisions: unsure.length,
    coverage: ratio(unsure.filter((kept) => kept.covered).length, unsure.length),
    othersKept:
      others === 0
        ? 1
        : ratio(
            unsure.reduce((sum, kept) => sum + kept.othersKept, 0),
            others,
          ),
  };
}

/** Tasks that touched `path` before, in the request's checkout when it names one (the same relative path in another checkout is another file). */
function ownersIn(index: TaskIndex, path: string, workspace: string | undefined): string[] {
  return index
    .tasksWithFile(path)
    .filter((task) => workspace === undefined || task.workspaces.size === 0 || task.workspaces.has(workspace))
    .map((task) => task.id);
}

function mistakeOf(options: { entry: LedgerEntry; gold: string; homes: ReadonlySet<string> | undefined }): MistakeKind {
  const { entry, gold, homes } = options;
  if (gold === SHARED_LABEL || entry.shared) return "shared";
  if (homes === undefined) return "merge";
  const visible = new Set([entry.task, ...entry.related]);
  return [...homes].every((home) => visible.has(home)) ? "merge" : "harmful";
}

function metricsOf(requests: readonly EvaluatedRequest[], threshold: number): RoutingMetrics {
  const n = requests.length;
  const opensGold = requests.filter((request) => request.opensGold).length;
  const opensGoldFound = requests.filter((request) => request.opensGold && request.opened && !request.shared).length;
  const opened = requests.filter((request) => request.opened && !request.shared);
  const count = (kind: MistakeKind) => requests.filter((request) => request.mistake === kind).length;
  return {
    n,
    accuracy: ratio(requests.filter((request) => request.correct).length, n),
    fallbackRate: ratio(requests.filter((request) => request.confidence < threshold).length, n),
    confidentWrongRate: ratio(requests.filter((request) => request.confidence >= threshold && !request.correct).length, n),
    newTaskPrecision: ratio(opened.filter((request) => request.correct).length, opened.length),
    newTaskRecall: ratio(opensGoldFound, opensGold),
    harmfulConfidentWrongRate: ratio(count("harmful"), n),
    mergeConfidentWrongRate: ratio(count("merge"), n),
    expectedCalibrationError: reliabilityOf(requests).expectedCalibrationError,
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000;
}
