import { carriesOn } from "../../plugin/core/routing/carried-on.js";
import type { RoutingDecision } from "../../plugin/core/routing/decision.js";
import { editVerdict } from "../../plugin/core/routing/edit-evidence.js";
import { carriedInNarrowedCall } from "../../plugin/core/routing/group-tasks.js";
import {
  carriedOnRequest,
  confirmRequest,
  emptyLedger,
  isSettled,
  type Ledger,
  type LedgerEntry,
  relabelRequest,
  resumeTask,
} from "../../plugin/core/routing/ledger.js";
import { indexEarlierTasks, mayResume, RESUMED_CONFIDENCE, resumeVerdict } from "../../plugin/core/routing/resume-verdict.js";
import { type RoutedRequest, routeRequest } from "../../plugin/core/routing/route-request.js";
import type { Router } from "../../plugin/core/routing/router.js";
import { extractSignals, type Signals } from "../../plugin/core/routing/signals.js";
import { TaskIndex } from "../../plugin/core/routing/task-index.js";
import { type LabelledSession, type SessionShape, SHARED_LABEL, shapeOf } from "./labelled-sessions.js";
import { type Reliability, reliabilityOf } from "./reliability.js";
import { earlierTasksOf, type ResumeFigures, type ResumeOutcome, resumeFiguresOf } from "./resume-figures.js";

/**
 * What a wrong decision costs. `harmful`: the gold task's earlier history is hidden (a
 * wrong existing task, or "new" for a known task). `merge`: a new task folded into an
 * existing one (costs tokens, hides nothing the new task had). `shared`: a shared
 * instruction kept by one task only, or a task's request taken for one meant for all.
 */
type MistakeKind = "harmful" | "merge" | "shared";

/**
 * What a request is, by its gold labels alone: it opens its task, continues the task of the
 * request before it, returns to a task after another intervened, or is meant for every task.
 */
const REQUEST_KINDS = ["opening", "continuation", "return", "shared"] as const;
type RequestKind = (typeof REQUEST_KINDS)[number];

/** A call narrowed to one task (a sure decision after the session's first request): what it carried of the earlier requests. */
interface NarrowedCall {
  /** It carried an earlier request of another gold task. */
  carriedOther: boolean;
  /** It left out an earlier request of its own gold task. */
  missedOwn: boolean;
  /** The earlier requests (1-based positions in the session) it carried of other tasks, and those of its own it left out. */
  carried: number[];
  missed: number[];
  /** Of `carried`, those whose place was not settled when the call was made: they rode along with every task they could be. */
  riding: number[];
}

/** One routed request of the evaluation, with what the router said and what was right. */
export interface EvaluatedRequest {
  session: string;
  shape: SessionShape;
  /** How the request is written, where its session says (generated and style-labelled sets). */
  style?: string;
  /** How the session's person writes, where it says. */
  register?: string;
  /** Where the session lists earlier sessions: how the request stood towards their unfinished tasks. */
  resume?: ResumeOutcome;
  index: number;
  gold: string;
  /** The gold says this request opens its task (its label's first request). */
  opensGold: boolean;
  kind: RequestKind;
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
  /** Sure, not shared and not the session's first request: what the narrowed call carried. */
  narrowed?: NarrowedCall;
  reason: string;
}

interface RoutingMetrics {
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
  /**
   * Of the requests after each session's first: routed surely (not as a rule for every task)
   * and to the right task, so the model got a call narrowed to its own task.
   */
  narrowedRight: number;
  /** Of the narrowed calls: those that carried another task's earlier request, and those that left out one of their own. */
  narrowedCalls: { n: number; carriedOther: number; missedOwn: number };
}

interface ShapeMetrics {
  shape: SessionShape;
  sessions: number;
  n: number;
  accuracy: number;
  fallbackRate: number;
  confidentWrongRate: number;
  harmfulConfidentWrongRate: number;
}

/** One writing style's figures (the request's `style`), so the worst style shows, not only the mean. */
interface StyleMetrics extends RoutingMetrics {
  style: string;
}

/** One kind of request's figures. */
interface KindMetrics extends RoutingMetrics {
  kind: RequestKind;
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
  /** Per kind of request (opening, continuation, return, shared), the kinds present only. */
  byKind: KindMetrics[];
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
  /** Where sessions list earlier sessions: resumptions of their unfinished tasks (right, wrong, missed). */
  resume?: ResumeFigures;
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
  /**
   * The share of turns (after each session's first, chosen by a hash of session and position)
   * whose work edits a file of another task instead of their own: the model guessing from its
   * context where the user meant something else. 0 by default: the edits as given.
   */
  wrongEdits?: number;
}): Promise<RoutingEvaluation> {
  const { threshold } = options;
  const ids = options.ids ?? "shown";
  const wrongEdits = options.wrongEdits ?? 0;
  const requests: EvaluatedRequest[] = [];
  let relabelled = 0;
  for (const session of options.sessions) {
    const evaluated = await evaluateSession(session, options.router, threshold, ids, wrongEdits);
    requests.push(...evaluated.requests);
    relabelled += evaluated.relabelled;
  }
  const days = options.sessions.filter((session) => session.earlier !== undefined);
  const resume = resumeFiguresOf(
    requests.flatMap((request) => (request.resume ? [{ ...request, resume: request.resume }] : [])),
    days.length,
    days.reduce((sum, session) => sum + earlierTasksOf(session).length, 0),
  );
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
    byKind: REQUEST_KINDS.filter((kind) => requests.some((request) => request.kind === kind)).map((kind) => ({
      kind,
      ...metricsOf(
        requests.filter((request) => request.kind === kind),
        threshold,
      ),
    })),
    reliability: reliabilityOf(requests),
    modelCalls: requests.filter((request) => request.askedModel).length,
    candidateFallback: candidateFallbackOf(requests),
    relabelled,
    ...(resume ? { resume } : {}),
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
  wrongEdits: number,
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
  /** Every earlier request: its message id and gold label, for what a narrowed call carried. */
  const routedSoFar: { messageID: string; label: string }[] = [];
  /** Files each gold task's work touched so far, newest last (for turns that edit a wrong task's file). */
  const filesOf = new Map<string, string[]>();
  /** The request before, while its place is unsettled: the next request may bear it out. */
  let previous: { messageID: string; text: string; files: readonly string[]; workspace: string | undefined } | undefined;
  /** The earlier sessions' unfinished tasks not resumed yet (a resumed one is claimed: listed no more), and their gold labels. */
  const earlierTasks = session.earlier ? earlierTasksOf(session) : undefined;
  const finished = earlierTasks === undefined ? [] : earlierTasksOf(session, "closed").map((earlier) => earlier.task);
  let resumable =
    earlierTasks === undefined
      ? undefined
      : indexEarlierTasks(
          earlierTasks.map((earlier) => earlier.task),
          finished,
        );
  const earlierLabels = new Map((earlierTasks ?? []).map((earlier) => [earlier.label, earlier.task.key]));
  for (const [position, request] of session.requests.entries()) {
    const messageID = `${session.id}#${position + 1}`;
    const text = ids === "shown" ? withShownIds(request.text, goldOrder, shownID) : request.text;
    // As the plug-in's routing step does: where the session's own routing is not sure, the request may resume an earlier task.
    let considered: { kind: "resume" | "offer" | "sure"; key: string; label: string; why: string } | undefined;
    const resume =
      resumable === undefined
        ? undefined
        : async (decision: RoutingDecision, signals: Signals): Promise<RoutedRequest | undefined> => {
            if (resumable === undefined) return undefined;
            const sureHere = !mayResume(decision, threshold);
            const verdict = resumeVerdict({ text, signals, earlier: resumable, current: index, sureHere });
            if (sureHere && !verdict) {
              considered = {
                kind: "sure",
                key: decision.shared ? "every task" : decision.target.kind === "task" ? decision.target.task : "new",
                label: "",
                why: "",
              };
              return undefined;
            }
            if (!verdict) return undefined;
            const { task } = verdict;
            const label = earlierTasks?.find((earlier) => earlier.task.key === task.key)?.label ?? task.taskId;
            considered = { kind: verdict.kind, key: task.key, label, why: verdict.why };
            if (verdict.kind === "offer") return undefined;
            const resumed = resumeTask(ledger, {
              from: {
                session: task.sessionID,
                task: task.taskId,
                ...(task.sessionTitle ? { sessionTitle: task.sessionTitle } : {}),
                lastActive: task.lastActive,
                pending: task.pending,
                by: "router",
              },
              title: task.title,
              messageID,
              confidence: Math.max(RESUMED_CONFIDENCE, threshold),
              reason: `resumes ${task.taskId} of session "${task.sessionTitle ?? task.sessionID}": ${verdict.why}`,
            });
            return resumed.entry ? { ledger: resumed.ledger, entry: resumed.entry, task: resumed.task } : undefined;
          };
    const routed = await routeRequest({ router, ledger, index, messageID, text, threshold, resume });
    // The callback ran inside routeRequest: what it considered is known only now.
    const seen = considered as typeof considered;
    const resumedNow = seen?.kind === "resume" && routed.entry === routed.ledger.decisions[messageID] && routed.task.resumed ? seen : undefined;
    if (resumedNow && earlierTasks) {
      // What the task showed in its earlier session is its evidence here too; it is no longer a candidate.
      const taken = earlierTasks.find((earlier) => earlier.task.key === resumedNow.key);
      for (const evidence of taken?.task.evidence ?? []) index.addEvidence(routed.task.id, evidence);
      earlierTasks.splice(earlierTasks.indexOf(taken as (typeof earlierTasks)[number]), 1);
      resumable = indexEarlierTasks(
        earlierTasks.map((earlier) => earlier.task),
        finished,
      );
    }
    ledger = routed.ledger;
    const entry: LedgerEntry = routed.entry;
    // A reply that carries on surely in the task an unsure request was guessed to bears it out, before its own call is made.
    const unsure = previous;
    const before = unsure === undefined ? undefined : ledger.decisions[unsure.messageID];
    if (
      unsure !== undefined &&
      before !== undefined &&
      carriesOn({
        previous: before,
        next: entry,
        nextText: text,
        nextSignals: extractSignals(text),
        previousFiles: unsure.files,
        ownersOf: (path) => ownersIn(index, path, unsure.workspace),
        threshold,
      })
    ) {
      ledger = carriedOnRequest(ledger, unsure.messageID);
      index.addEvidence(before.task, {
        text: unsure.text,
        ...(unsure.files.length > 0 ? { paths: unsure.files } : {}),
        ...(unsure.workspace ? { workspaces: [unsure.workspace] } : {}),
      });
    }
    const existingLabels = new Set(labelOf.values());
    // A resumed task stands for the earlier task's label, whatever the request's.
    if (entry.opened) labelOf.set(routed.task.id, resumedNow?.label ?? request.task);
    const predicted = labelOf.get(routed.task.id) ?? "?";
    const sharedGold = request.task === SHARED_LABEL;
    const correct = sharedGold ? entry.shared : !entry.shared && (entry.opened && !resumedNow ? !existingLabels.has(request.task) : predicted === request.task);
    const goldEarlier = earlierLabels.get(request.task);
    const resumeOutcome: ResumeOutcome | undefined =
      earlierTasks === undefined
        ? undefined
        : {
            ...(goldEarlier === undefined ? {} : { gold: goldEarlier }),
            opens: goldEarlier !== undefined && !goldSeen.has(request.task),
            ...(resumedNow ? { resumed: resumedNow.key, why: resumedNow.why } : {}),
            ...(seen?.kind === "offer" ? { offered: seen.key, why: seen.why } : {}),
            ...(seen?.kind === "sure" ? { sureOf: seen.key } : {}),
          };
    const mistake = correct ? undefined : mistakeOf({ entry, gold: request.task, homes: homesOf.get(request.task) });
    const candidates =
      entry.shared || sharedGold || entry.confidence >= threshold ? undefined : keptByCandidates(entry, homesOf.get(request.task), earlier, request.task);
    const narrowed =
      position > 0 && !entry.shared && entry.confidence >= threshold ? narrowedCall(entry, ledger, routedSoFar, request.task, threshold) : undefined;
    const previousGold = session.requests[position - 1]?.task;
    const kind: RequestKind = sharedGold ? "shared" : !goldSeen.has(request.task) ? "opening" : previousGold === request.task ? "continuation" : "return";
    results.push({
      session: session.id,
      shape,
      ...(request.style === undefined ? {} : { style: request.style }),
      ...(session.register === undefined ? {} : { register: session.register }),
      ...(resumeOutcome ? { resume: resumeOutcome } : {}),
      index: position + 1,
      gold: request.task,
      opensGold: !sharedGold && !goldSeen.has(request.task),
      kind,
      predicted: entry.shared ? SHARED_LABEL : predicted,
      task: routed.task.id,
      opened: entry.opened,
      shared: entry.shared,
      confidence: entry.confidence,
      correct,
      ...(mistake && entry.confidence >= threshold ? { mistake } : {}),
      askedModel: entry.aux !== undefined,
      ...(candidates ? { candidates } : {}),
      ...(narrowed ? { narrowed } : {}),
      reason: entry.reason,
    });
    goldSeen.add(request.task);
    // The work's files arrive after the decision, as tool calls do: they may settle an unsure
    // decision (relabel it to the task whose files they all are, or bear it out), as the
    // plug-in does once the turn ends. Only a settled decision is evidence for later routing.
    let home = routed.task.id;
    const files = position > 0 && wrongEdits > 0 ? editedFiles(session, position, filesOf, wrongEdits) : request.files;
    const verdict =
      entry.shared || !files || isSettled(entry, threshold)
        ? undefined
        : editVerdict({
            routedTo: home,
            opened: entry.opened,
            edited: files,
            ownersOf: (path) => ownersIn(index, path, request.workspace),
            pointsTo: entry.pointsTo,
          });
    if (verdict?.kind === "relabel" && files) {
      ledger = relabelRequest(ledger, messageID, { task: verdict.task, files });
      home = verdict.task;
      relabelled += 1;
    } else if (verdict?.kind === "confirm" && files) ledger = confirmRequest(ledger, messageID, files);
    routedSoFar.push({ messageID, label: request.task });
    if (files && !sharedGold) filesOf.set(request.task, [...(filesOf.get(request.task) ?? []), ...files]);
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
    previous = entry.shared || settled ? undefined : { messageID, text, files: files ?? [], workspace: request.workspace };
    if (entry.shared) index.countRequest();
    else if (settled) {
      index.current = home;
      index.addEvidence(home, {
        text,
        ...(files ? { paths: files } : {}),
        ...(request.workspace ? { workspaces: [request.workspace] } : {}),
      });
    }
  }
  return { requests: results, relabelled };
}

/** What a call narrowed to the decision's task carries of the earlier requests, by their gold labels. */
function narrowedCall(
  entry: LedgerEntry,
  ledger: Ledger,
  earlier: readonly { messageID: string; label: string }[],
  gold: string,
  threshold: number,
): NarrowedCall {
  const visible = new Set([entry.task, ...entry.related]);
  const carried: number[] = [];
  const missed: number[] = [];
  const riding: number[] = [];
  earlier.forEach((request, position) => {
    const decision = ledger.decisions[request.messageID];
    if (!decision || request.label === SHARED_LABEL) return;
    const kept = carriedInNarrowedCall(decision, visible, threshold);
    if (kept && request.label !== gold) {
      carried.push(position + 1);
      if (!decision.shared && !isSettled(decision, threshold)) riding.push(position + 1);
    }
    if (!kept && request.label === gold) missed.push(position + 1);
  });
  return { carriedOther: carried.length > 0, missedOwn: missed.length > 0, carried, missed, riding };
}

/**
 * The files a turn's work touched: as labelled, or, for the chosen share of turns, one file
 * of another task that its work touched before (the newest such), as a model that guessed
 * the request's task from its context would edit. Turns with no other task's file keep theirs.
 */
function editedFiles(session: LabelledSession, position: number, filesOf: ReadonlyMap<string, readonly string[]>, share: number): string[] | undefined {
  const request = session.requests[position];
  if (!request || request.task === SHARED_LABEL || stableFraction(`${session.id}#${position + 1}`) >= share) return request?.files;
  const others = [...filesOf.entries()].filter(([label]) => label !== request.task).flatMap(([, files]) => files);
  const own = new Set(filesOf.get(request.task) ?? []);
  const wrong = others.filter((file) => !own.has(file)).at(-1);
  return wrong === undefined ? request.files : [wrong];
}

/** A number in [0, 1) fixed by the text (FNV-1a): the same turns are chosen in every run. */
function stableFraction(text: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < text.length; position += 1) {
    hash ^= text.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x100000000;
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
  const afterFirst = requests.filter((request) => request.index > 1);
  const narrowed = requests.flatMap((request) => (request.narrowed ? [request.narrowed] : []));
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
    narrowedRight: ratio(afterFirst.filter((request) => request.narrowed && request.correct).length, afterFirst.length),
    narrowedCalls: {
      n: narrowed.length,
      carriedOther: ratio(narrowed.filter((call) => call.carriedOther).length, narrowed.length),
      missedOwn: ratio(narrowed.filter((call) => call.missedOwn).length, narrowed.length),
    },
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000;
}
