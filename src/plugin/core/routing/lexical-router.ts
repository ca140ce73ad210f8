import { type AnchorVerdict, anchorVerdict, type UnsureKind } from "./anchor-rules.js";
import { type Anchors, anchorsOf } from "./anchors.js";
import { type DecisionBasis, type RoutingDecision, roundConfidence } from "./decision.js";
import { calibrate, type RouterParameters, scoreCandidates } from "./router-model.js";
import { ROUTER_PARAMETERS } from "./router-parameters.js";
import { type RoutingFeatures, routingFeatures, type TaskCandidate } from "./routing-features.js";
import { type SafetyRule, safetyRule } from "./safety-rules.js";
import type { Signals } from "./signals.js";
import type { TaskIndex } from "./task-index.js";
import { taskTitle } from "./task-title.js";

/** The request being routed, with its signals already read out. */
export interface RoutingRequest {
  text: string;
  signals: Signals;
  /** The OpenCode session the request belongs to (a model router calls OpenCode's models for it). */
  sessionID?: string | undefined;
}

export interface LexicalRouterOptions {
  parameters?: RouterParameters;
  /** The plug-in's confidence threshold: a decision held back by a safety rule stays below it. */
  threshold: number;
}

/** A task's probability below this rules it out of an unsure request's candidates (dev, train, threads-dev: coverage 96.9-100%, 7-10% of other tasks' history left out). */
const NEGLIGIBLE = 0.01;
/** How far below the threshold a held-back decision stays. */
const BELOW_THRESHOLD = 0.05;

/**
 * Routes a request with no model and no network. Every candidate (each task, and "new")
 * gets a score from the fitted model over the router's features: evidence by kind, checkout,
 * explicit and back-references, staying on the current task, novelty, new-task cues. The
 * confidence is the top probability, calibrated out of fold; safety rules then hold back
 * any decision that would hide history without positive evidence.
 */
export function routeLexically(request: RoutingRequest, index: TaskIndex, options: LexicalRouterOptions): RoutingDecision {
  return decideLexically(request, index, options).decision;
}

/** A lexical decision with what produced it: the model's top probability and the safety rule that held it back. */
export interface LexicalDecision {
  decision: RoutingDecision;
  /** Before calibration and safety rules; undefined for the first request and shared instructions. */
  probability?: number;
  /** The model's probability for what was finally chosen (the anchors may choose otherwise). */
  chosenProbability?: number;
  rule?: SafetyRule;
  /** The kind of unsure verdict the anchors gave, if they gave one. */
  unsure?: UnsureKind;
}

export function decideLexically(request: RoutingRequest, index: TaskIndex, options: LexicalRouterOptions): LexicalDecision {
  const parameters = options.parameters ?? ROUTER_PARAMETERS;
  const { threshold } = options;
  const { signals } = request;
  const newTask = { kind: "new" as const, title: taskTitle(request.text) };
  const decide = (target: RoutingDecision["target"], confidence: number, reason: string, basis: DecisionBasis, shared = false): RoutingDecision => ({
    target,
    confidence: roundConfidence(confidence),
    related: [],
    shared,
    reason,
    basis,
    router: "lexical",
  });

  if (index.size === 0) return { decision: decide(newTask, 1, "first request of the session", "first") };
  const features = routingFeatures({ text: request.text, signals, index });
  const current = index.current === undefined ? undefined : index.task(index.current);
  const scores = scoreCandidates(features, parameters);
  const best = bestCandidate(features, scores.tasks);
  // Meant for every task: kept with the current task's decision, and the full history stays.
  if (current && scores.shared > scores.fresh && scores.shared > (best?.probability ?? 0)) {
    const confidence = calibrate(scores.shared, parameters.calibration);
    const reason = "a rule for every task: kept with the current task, the full history stays";
    return { decision: decide({ kind: "task", task: current.id }, confidence, reason, "shared", true), probability: scores.shared };
  }
  const modelChoice: TaskCandidate | "new" = best && best.probability >= scores.fresh ? best.candidate : "new";
  const probability = modelChoice === "new" ? scores.fresh : (best?.probability ?? 0);
  const anchors = anchorsOf({ text: request.text, signals, index, features });
  const verdict = anchorVerdict({ request: request.text, chosen: modelChoice, candidates: features.tasks, anchors, facts: features.facts, signals });
  const chosen = verdict.chosen;
  // The model's own probability for what the anchors chose, where they chose otherwise.
  const chosenProbability =
    verdict.chosen === modelChoice ? probability : verdict.chosen === "new" ? scores.fresh : (scores.tasks[features.tasks.indexOf(verdict.chosen)] ?? 0);
  const modelConfidence = calibrate(chosenProbability, parameters.calibration);
  let confidence = verdict.floor === undefined ? modelConfidence : Math.max(verdict.chosen === modelChoice ? modelConfidence : 0, verdict.floor);
  // An anchor is the positive evidence the safety rules ask for; without one they still hold.
  const rule = verdict.floor === undefined ? safetyRule({ features, chosen, current: index.current }) : undefined;
  if (rule) confidence = heldBack(confidence, rule, parameters, threshold);
  // An unsure verdict is as sure as such verdicts turned out to be, and always below the threshold.
  if (verdict.unsure) confidence = Math.min(calibrate(chosenProbability, parameters.unsure[verdict.unsure]), threshold - BELOW_THRESHOLD);
  const reason = describe({ chosen, probability, rule, verdict, features, current: index.current });
  const decided =
    chosen === "new"
      ? decide(newTask, confidence, reason, features.facts.unseenCheckout ? "workspace" : "content")
      : decide({ kind: "task", task: chosen.task.id }, confidence, reason, basisOf(chosen));
  const decision =
    decided.confidence < threshold
      ? { ...decided, candidates: candidateTasks(features, scores.tasks, anchors), pointsTo: pointedTasks(features, anchors) }
      : decided;
  return { decision, probability, chosenProbability, ...(rule ? { rule } : {}), ...(verdict.unsure ? { unsure: verdict.unsure } : {}) };
}

/**
 * Holds back a decision another router made (the model's) by the same safety rules: a
 * decision that would hide history without positive evidence stays below the threshold.
 */
export function applySafetyRules(decision: RoutingDecision, request: RoutingRequest, index: TaskIndex, options: LexicalRouterOptions): RoutingDecision {
  if (index.size === 0 || decision.shared) return decision;
  const parameters = options.parameters ?? ROUTER_PARAMETERS;
  const { threshold } = options;
  const features = routingFeatures({ text: request.text, signals: request.signals, index });
  const target = decision.target;
  const chosen = target.kind === "new" ? "new" : features.tasks.find((candidate) => candidate.task.id === target.task);
  if (chosen === undefined) return decision;
  const rule = safetyRule({ features, chosen, current: index.current });
  if (!rule) return decision;
  const confidence = roundConfidence(heldBack(decision.confidence, rule, parameters, threshold));
  if (confidence >= decision.confidence) return decision;
  return { ...decision, confidence, reason: `${decision.reason}; ${describeRule(rule, chosen)}` };
}

function describeRule(rule: SafetyRule, chosen: TaskCandidate | "new"): string {
  if (rule !== "unsupported") return "held back: reads like a new task folded into an old one";
  return `held back: nothing in it points to ${chosen === "new" ? "a new task" : chosen.task.id}`;
}

function bestCandidate(features: RoutingFeatures, probabilities: readonly number[]): { candidate: TaskCandidate; probability: number } | undefined {
  let best: { candidate: TaskCandidate; probability: number } | undefined;
  features.tasks.forEach((candidate, position) => {
    const probability = probabilities[position] ?? 0;
    // Ties go to the most recently active task, so the choice never depends on map order.
    if (!best || probability > best.probability || (probability === best.probability && candidate.task.lastRequest > best.candidate.task.lastRequest)) {
      best = { candidate, probability };
    }
  });
  return best;
}

/**
 * The tasks an unsure request could belong to: every task the model gives a probability that
 * is not negligible, and every task something in the request points to (a file, a code name,
 * its checkout, id or title, a back-reference, its own words), whatever the model says.
 */
function candidateTasks(features: RoutingFeatures, probabilities: readonly number[], anchors: Anchors): string[] {
  const pointed = new Set(anchors.strong.map((anchor) => anchor.task.id));
  return features.tasks
    .filter((candidate, position) => {
      const { evidence } = candidate;
      const pointsHere = candidate.workspace || candidate.explicit || candidate.backReference || evidence.files > 0 || evidence.symbols > 0;
      return (probabilities[position] ?? 0) >= NEGLIGIBLE || pointsHere || pointed.has(candidate.task.id);
    })
    .map((candidate) => candidate.task.id);
}

/** The tasks something in the request itself points to: an anchor, a file, code name or word of theirs, their checkout, id or a back-reference. */
function pointedTasks(features: RoutingFeatures, anchors: Anchors): string[] {
  const anchored = new Set(anchors.strong.map((anchor) => anchor.task.id));
  return features.tasks
    .filter(({ task, evidence, workspace, explicit, backReference }) => anchored.has(task.id) || workspace || explicit || backReference || evidence.total > 0)
    .map((candidate) => candidate.task.id);
}

/** A held-back decision's confidence: its kind's out-of-fold accuracy at most, and always below the threshold. */
function heldBack(confidence: number, rule: SafetyRule, parameters: RouterParameters, threshold: number): number {
  const cap = rule === "unsupported" ? parameters.caps.unsupported : parameters.caps.foldedNewTask;
  return Math.min(confidence, cap, threshold - BELOW_THRESHOLD);
}

function basisOf(candidate: TaskCandidate): DecisionBasis {
  if (candidate.workspace) return "workspace";
  if (candidate.explicit) return "explicit";
  if (candidate.backReference) return "back-reference";
  return "content";
}

function describe(options: {
  chosen: TaskCandidate | "new";
  probability: number;
  rule: SafetyRule | undefined;
  verdict: AnchorVerdict;
  features: RoutingFeatures;
  current: string | undefined;
}): string {
  const { chosen, rule, verdict, features, current } = options;
  const { facts } = features;
  // The task and whether it is new are said next to the reason everywhere it is shown: the reason says why.
  const why: string[] = [];
  if (chosen === "new") {
    if (facts.unseenCheckout) why.push(`checkout ${facts.unseenCheckout} is in no task`);
    if (facts.newTaskCue && verdict.why === "") why.push("says it starts something new");
    if (facts.unknownReference) why.push(`no task mentions ${facts.unknownReference}`);
    if (why.length === 0 && verdict.why === "") why.push(`${Math.round(facts.novelty * 100)}% of its words are new to this session`);
  } else {
    if (chosen.workspace) why.push("in its checkout");
    if (chosen.explicit) why.push("names it");
    if (chosen.backReference) why.push("refers back to it");
    const { files, symbols, words } = chosen.evidence;
    const shares = [files > 0 ? "files" : "", symbols > 0 ? "code names" : "", words > 0 ? "words" : ""].filter(Boolean);
    if (verdict.why === "" && shares.length > 0) why.push(`shares its ${shares.join(", ")}`);
    if (facts.followUp) why.push("reads as a follow-up");
    if (why.length === 0 && verdict.why === "") why.push(chosen.task.id === current ? "nothing points elsewhere" : "closest in its words");
  }
  if (verdict.why !== "") why.push(verdict.why);
  if (rule) why.push(describeRule(rule, chosen));
  return why.join("; ");
}
