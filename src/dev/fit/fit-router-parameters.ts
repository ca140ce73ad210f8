import { evaluateRouting } from "../../lab/route-eval/evaluate-routing.js";
import type { LabelledSession } from "../../lab/route-eval/labelled-sessions.js";
import { reliabilityOf } from "../../lab/route-eval/reliability.js";
import { DEFAULT_OPTIONS } from "../../plugin/config/options-schema.js";
import { UNSURE_KINDS } from "../../plugin/core/routing/anchor-rules.js";
import { decideLexically, type LexicalDecision } from "../../plugin/core/routing/lexical-router.js";
import type { Router } from "../../plugin/core/routing/router.js";
import type { RouterParameters } from "../../plugin/core/routing/router-model.js";
import {
  NEW_TASK_FEATURES,
  type NewTaskFeature,
  SHARED_FEATURES,
  type SharedFeature,
  TASK_FEATURES,
  type TaskFeature,
} from "../../plugin/core/routing/routing-features.js";
import { type Choice, fitConditionalLogit } from "./conditional-logit.js";
import { INTERCEPTS, PARAMETER_COUNT, trainingChoices } from "./training-choices.js";

/** How the fit went, for the fitting script to print. */
export interface FitReport {
  choices: number;
  groups: string[];
  /** Mean negative log-likelihood of the right candidate, on the training choices. */
  trainingLoss: number;
  /** Online decisions of the held-out repository of each fold (the calibration data). */
  outOfFold: { decisions: number; accuracy: number; eceBefore: number; eceAfter: number };
}

/** What a decision of a fold's router looked like, for calibration. */
interface FoldDecision {
  probability: number;
  rule: LexicalDecision["rule"];
  unsure: LexicalDecision["unsure"];
  chosenProbability: number;
  basis: string;
  correct: boolean;
}

const ROUND = 1e4;

/**
 * Fits the lexical router on labelled sessions: the conditional logit's weights on all of
 * them (teacher forcing), then, with one fold per repository, the router fitted without that
 * repository is run online over it; those out-of-fold decisions calibrate the confidence
 * (Platt scaling), set the confidence of decisions held back by a safety rule, and of
 * shared instructions. Deterministic.
 */
export async function fitRouterParameters(options: {
  sessions: readonly LabelledSession[];
  splits: string[];
  l2: number;
}): Promise<{ parameters: RouterParameters; report: FitReport }> {
  const { sessions, l2 } = options;
  const choices = trainingChoices(sessions);
  const fit = fitConditionalLogit({ choices, dimension: PARAMETER_COUNT, l2, unpenalised: INTERCEPTS });
  const groups = [...new Set(sessions.map((session) => session.repo ?? session.id))].sort();
  const decisions: FoldDecision[] = [];
  for (const group of groups) {
    const training = choices.filter((choice) => choice.group !== group);
    const weights = fitConditionalLogit({ choices: training, dimension: PARAMETER_COUNT, l2, unpenalised: INTERCEPTS }).weights;
    decisions.push(
      ...(await foldDecisions(
        sessions.filter((session) => (session.repo ?? session.id) === group),
        weights,
      )),
    );
  }
  const calibration = fitPlatt(decisions);
  const caps = {
    unsupported: laplace(decisions.filter((decision) => decision.rule === "unsupported")),
    foldedNewTask: laplace(decisions.filter((decision) => decision.rule === "folded-new-task")),
  };
  const unsure = Object.fromEntries(
    UNSURE_KINDS.map((kind) => {
      const held = decisions.filter((decision) => decision.unsure === kind).map((decision) => ({ ...decision, probability: decision.chosenProbability }));
      const fitted = fitPlatt(held);
      return [kind, { slope: round(fitted.slope), intercept: round(fitted.intercept) }];
    }),
  ) as RouterParameters["unsure"];
  const parameters: RouterParameters = {
    version: 1,
    fittedOn: {
      splits: options.splits,
      sessions: sessions.length,
      requests: sessions.reduce((sum, session) => sum + session.requests.length, 0),
      examples: choices.length,
      l2,
      folds: groups.length,
    },
    ...weightsByName(fit.weights),
    calibration: { slope: round(calibration.slope), intercept: round(calibration.intercept) },
    caps: { unsupported: round(caps.unsupported), foldedNewTask: round(caps.foldedNewTask) },
    unsure,
  };
  const calibrated = decisions.map((decision) => ({ confidence: platt(decision.probability, calibration), correct: decision.correct }));
  return {
    parameters,
    report: {
      choices: choices.length,
      groups,
      trainingLoss: round(fit.loss),
      outOfFold: {
        decisions: decisions.length,
        accuracy: round(decisions.filter((decision) => decision.correct).length / Math.max(1, decisions.length)),
        eceBefore: reliabilityOf(decisions.map((decision) => ({ confidence: decision.probability, correct: decision.correct }))).expectedCalibrationError,
        eceAfter: reliabilityOf(calibrated).expectedCalibrationError,
      },
    },
  };
}

/** Runs a router with these weights, uncalibrated and without caps, online over the sessions. */
async function foldDecisions(sessions: readonly LabelledSession[], weights: readonly number[]): Promise<FoldDecision[]> {
  const parameters: RouterParameters = {
    version: 1,
    fittedOn: { splits: [], sessions: 0, requests: 0, examples: 0, l2: 0, folds: 0 },
    ...weightsByName(weights),
    calibration: { slope: 1, intercept: 0 },
    caps: { unsupported: 1, foldedNewTask: 1 },
    // Unsure decisions at their model probability, held below the threshold by the router.
    unsure: Object.fromEntries(UNSURE_KINDS.map((kind) => [kind, { slope: 1, intercept: 0 }])) as RouterParameters["unsure"],
  };
  const details: LexicalDecision[] = [];
  const router: Router = {
    name: "lexical",
    route: async (request, index) => {
      // Uncalibrated and uncapped, but held back below the threshold as online: an unsure decision is no evidence for the next.
      const detail = decideLexically(request, index, { parameters, threshold: DEFAULT_OPTIONS.confidenceThreshold });
      details.push(detail);
      return detail.decision;
    },
  };
  const evaluation = await evaluateRouting({ sessions, router, threshold: DEFAULT_OPTIONS.confidenceThreshold });
  return evaluation.requests.flatMap((request, position) => {
    const detail = details[position];
    if (!detail || detail.decision.basis === "first") return [];
    return [
      {
        probability: detail.probability ?? detail.decision.confidence,
        rule: detail.rule,
        unsure: detail.unsure,
        chosenProbability: detail.chosenProbability ?? detail.decision.confidence,
        basis: detail.decision.basis,
        correct: request.correct,
      },
    ];
  });
}

function weightsByName(weights: readonly number[]): Pick<RouterParameters, "taskWeights" | "newTaskWeights" | "sharedWeights"> {
  const newOffset = TASK_FEATURES.length;
  const sharedOffset = newOffset + NEW_TASK_FEATURES.length;
  const taskWeights = Object.fromEntries(TASK_FEATURES.map((name, index) => [name, round(weights[index] ?? 0)])) as Record<TaskFeature, number>;
  const newTaskWeights = Object.fromEntries(NEW_TASK_FEATURES.map((name, index) => [name, round(weights[newOffset + index] ?? 0)])) as Record<
    NewTaskFeature,
    number
  >;
  const sharedWeights = Object.fromEntries(SHARED_FEATURES.map((name, index) => [name, round(weights[sharedOffset + index] ?? 0)])) as Record<
    SharedFeature,
    number
  >;
  return { taskWeights, newTaskWeights, sharedWeights };
}

/** Platt scaling: P(right) = sigmoid(slope * logit(p) + intercept), as a two-candidate logit. */
function fitPlatt(decisions: readonly { probability: number; correct: boolean }[]): { slope: number; intercept: number } {
  if (decisions.length === 0) return { slope: 1, intercept: 0 };
  const choices: Choice[] = decisions.map((decision) => ({
    candidates: [
      [logit(decision.probability), 1],
      [0, 0],
    ],
    chosen: decision.correct ? 0 : 1,
  }));
  const { weights } = fitConditionalLogit({ choices, dimension: 2, l2: 1e-3 });
  return { slope: weights[0] ?? 1, intercept: weights[1] ?? 0 };
}

function platt(probability: number, calibration: { slope: number; intercept: number }): number {
  return 1 / (1 + Math.exp(-(calibration.slope * logit(probability) + calibration.intercept)));
}

function logit(probability: number): number {
  const p = Math.min(1 - 1e-9, Math.max(1e-9, probability));
  return Math.log(p / (1 - p));
}

/** Share right, with one right and one wrong added (no certainty from few cases). */
function laplace(decisions: readonly { correct: boolean }[]): number {
  return (decisions.filter((decision) => decision.correct).length + 1) / (decisions.length + 2);
}

function round(value: number): number {
  return Math.round(value * ROUND) / ROUND;
}
