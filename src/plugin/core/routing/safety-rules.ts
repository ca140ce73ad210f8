import type { RoutingFeatures, TaskCandidate } from "./routing-features.js";

/**
 * Why a decision may not hide history, whatever its score:
 * - `unsupported`: nothing in the request speaks for the chosen task (no shared file, symbol,
 *   word, checkout, reference; for staying on the current task, the request is not a bare
 *   continuation), or nothing speaks for a new one (no cue, no new checkout, little unseen);
 * - `folded-new-task`: the request says it starts something new, names a checkout or task no
 *   one has, or an unseen file while no task has any evidence, and the chosen existing task
 *   has no hard evidence (checkout, explicit reference, back-reference, file or symbol).
 */
export type SafetyRule = "unsupported" | "folded-new-task";

export function safetyRule(options: { features: RoutingFeatures; chosen: TaskCandidate | "new"; current: string | undefined }): SafetyRule | undefined {
  const { features, chosen, current } = options;
  const { facts } = features;
  if (chosen === "new") {
    const speaksForNew =
      facts.newTaskCue || facts.unseenCheckout !== undefined || facts.unknownReference !== undefined || facts.unseenPaths > 0 || facts.novelty >= 0.5;
    return speaksForNew ? undefined : "unsupported";
  }
  const hard = chosen.workspace || chosen.explicit || chosen.backReference || chosen.evidence.files > 0 || chosen.evidence.symbols > 0;
  if (!hard) {
    const noEvidenceAnywhere = features.tasks.every((candidate) => candidate.evidence.total === 0);
    if (facts.newTaskCue || facts.unseenCheckout !== undefined || facts.unknownReference !== undefined || (facts.unseenPaths > 0 && noEvidenceAnywhere)) {
      return "folded-new-task";
    }
  }
  const supported = hard || chosen.evidence.words > 0 || (chosen.task.id === current && facts.bare);
  return supported ? undefined : "unsupported";
}
