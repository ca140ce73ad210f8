import type { UnsureKind } from "./anchor-rules.js";
import {
  NEW_TASK_FEATURES,
  type NewTaskFeature,
  type RoutingFeatures,
  SHARED_FEATURES,
  type SharedFeature,
  TASK_FEATURES,
  type TaskFeature,
} from "./routing-features.js";

/**
 * The lexical router's fitted parameters: a conditional logit over the candidates (each
 * existing task, "new", and "meant for every task"), a calibration of its top probability,
 * and the confidence the safety rules allow. Written by `npm run fit-router`.
 */
export interface RouterParameters {
  version: 1;
  /** What the parameters were fitted on, for the record. */
  fittedOn: { splits: string[]; sessions: number; requests: number; examples: number; l2: number; folds: number };
  taskWeights: Record<TaskFeature, number>;
  newTaskWeights: Record<NewTaskFeature, number>;
  sharedWeights: Record<SharedFeature, number>;
  /** Platt scaling of the top probability: sigmoid(slope * logit(p) + intercept), fitted out of fold. */
  calibration: { slope: number; intercept: number };
  /** Confidence a decision gets when a safety rule holds it back (out-of-fold accuracy of such decisions). */
  caps: { unsupported: number; foldedNewTask: number };
  /**
   * Confidence of a decision the anchors leave unsure, by kind: Platt scaling of the model's
   * probability for what was chosen, fitted out of fold on such decisions alone.
   */
  unsure: Record<UnsureKind, RouterParameters["calibration"]>;
}

/** The candidates' probabilities: existing tasks in index order, "new", and "shared". */
export interface CandidateScores {
  tasks: number[];
  fresh: number;
  shared: number;
}

/** Softmax over the candidates' linear scores. */
export function scoreCandidates(
  features: RoutingFeatures,
  parameters: Pick<RouterParameters, "taskWeights" | "newTaskWeights" | "sharedWeights">,
): CandidateScores {
  const taskWeights = TASK_FEATURES.map((name) => parameters.taskWeights[name]);
  const newWeights = NEW_TASK_FEATURES.map((name) => parameters.newTaskWeights[name]);
  const sharedWeights = SHARED_FEATURES.map((name) => parameters.sharedWeights[name]);
  const scores = [
    ...features.tasks.map((candidate) => dot(taskWeights, candidate.values)),
    dot(newWeights, features.fresh),
    dot(sharedWeights, features.shared),
  ];
  const probabilities = softmax(scores);
  const count = features.tasks.length;
  return { tasks: probabilities.slice(0, count), fresh: probabilities[count] ?? 0, shared: probabilities[count + 1] ?? 0 };
}

/** The calibrated confidence of a top probability. */
export function calibrate(probability: number, calibration: RouterParameters["calibration"]): number {
  const p = Math.min(1 - 1e-9, Math.max(1e-9, probability));
  return sigmoid(calibration.slope * Math.log(p / (1 - p)) + calibration.intercept);
}

function softmax(scores: readonly number[]): number[] {
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const sum = exps.reduce((total, value) => total + value, 0);
  return exps.map((value) => value / sum);
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

function dot(weights: readonly number[], values: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < weights.length; index += 1) sum += (weights[index] ?? 0) * (values[index] ?? 0);
  return sum;
}
