import { solveLinear } from "./solve-linear.js";

/** One choice among candidates: each candidate's feature vector (in parameter space) and the index of the right one. */
export interface Choice {
  candidates: number[][];
  chosen: number;
}

export interface LogitFit {
  weights: number[];
  /** Mean negative log-likelihood of the right candidates at the fitted weights. */
  loss: number;
  iterations: number;
}

/**
 * Fits a conditional logit (softmax over each choice's candidates, one weight vector
 * shared by all) by Newton's method with an L2 penalty and a backtracking line search.
 * Deterministic: the same choices always give the same weights. `unpenalised` lists
 * weights (intercepts) the penalty leaves alone.
 */
export function fitConditionalLogit(options: {
  choices: readonly Choice[];
  dimension: number;
  l2: number;
  unpenalised?: readonly number[];
  maxIterations?: number;
}): LogitFit {
  const { choices, dimension, l2, maxIterations = 100 } = options;
  const penalised = Array.from({ length: dimension }, (_, index) => !(options.unpenalised ?? []).includes(index));
  let weights = new Array<number>(dimension).fill(0);
  let loss = objective(choices, weights, l2, penalised);
  let iterations = 0;
  for (; iterations < maxIterations; iterations += 1) {
    const { gradient, hessian } = derivatives(choices, weights, l2, penalised);
    const norm = Math.sqrt(gradient.reduce((sum, value) => sum + value * value, 0));
    if (norm < 1e-7 * Math.max(1, choices.length)) break;
    const step = solveLinear(hessian, gradient);
    let scale = 1;
    let next = weights;
    let nextLoss = loss;
    for (let attempt = 0; attempt < 30; attempt += 1) {
      next = weights.map((value, index) => value - scale * (step[index] ?? 0));
      nextLoss = objective(choices, next, l2, penalised);
      if (nextLoss <= loss) break;
      scale /= 2;
    }
    if (nextLoss > loss) break;
    const improvement = loss - nextLoss;
    weights = next;
    loss = nextLoss;
    if (improvement < 1e-12) break;
  }
  return { weights, loss: meanLoss(choices, weights), iterations };
}

/** Probabilities of a choice's candidates under `weights`. */
function choiceProbabilities(candidates: readonly (readonly number[])[], weights: readonly number[]): number[] {
  const scores = candidates.map((values) => dot(values, weights));
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const sum = exps.reduce((total, value) => total + value, 0);
  return exps.map((value) => value / sum);
}

function objective(choices: readonly Choice[], weights: readonly number[], l2: number, penalised: readonly boolean[]): number {
  let total = 0;
  for (const choice of choices) total -= Math.log(Math.max(1e-300, choiceProbabilities(choice.candidates, weights)[choice.chosen] ?? 0));
  weights.forEach((value, index) => {
    if (penalised[index]) total += (l2 / 2) * value * value;
  });
  return total;
}

function meanLoss(choices: readonly Choice[], weights: readonly number[]): number {
  if (choices.length === 0) return 0;
  let total = 0;
  for (const choice of choices) total -= Math.log(Math.max(1e-300, choiceProbabilities(choice.candidates, weights)[choice.chosen] ?? 0));
  return total / choices.length;
}

function derivatives(
  choices: readonly Choice[],
  weights: readonly number[],
  l2: number,
  penalised: readonly boolean[],
): { gradient: number[]; hessian: number[][] } {
  const size = weights.length;
  const gradient = weights.map((value, index) => (penalised[index] ? l2 * value : 0));
  const hessian = Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, column) => (row === column ? (penalised[row] ? l2 : 1e-6) : 0)));
  for (const choice of choices) {
    const probabilities = choiceProbabilities(choice.candidates, weights);
    const mean = new Array<number>(size).fill(0);
    choice.candidates.forEach((values, candidate) => {
      const p = probabilities[candidate] ?? 0;
      for (let k = 0; k < size; k += 1) mean[k] = (mean[k] ?? 0) + p * (values[k] ?? 0);
    });
    const right = choice.candidates[choice.chosen] as number[];
    for (let k = 0; k < size; k += 1) gradient[k] = (gradient[k] ?? 0) + (mean[k] ?? 0) - (right[k] ?? 0);
    choice.candidates.forEach((values, candidate) => {
      const p = probabilities[candidate] ?? 0;
      if (p === 0) return;
      for (let row = 0; row < size; row += 1) {
        const a = (values[row] ?? 0) - (mean[row] ?? 0);
        if (a === 0) continue;
        const target = hessian[row] as number[];
        for (let column = 0; column < size; column += 1) target[column] = (target[column] ?? 0) + p * a * ((values[column] ?? 0) - (mean[column] ?? 0));
      }
    });
  }
  return { gradient, hessian };
}

function dot(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < weights.length; index += 1) sum += (values[index] ?? 0) * (weights[index] ?? 0);
  return sum;
}
