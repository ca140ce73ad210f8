import { z } from "zod";

/** Tokens and time an auxiliary-model call cost; they count in the session's budget. */
export const AuxUsageSchema = z.object({
  calls: z.number().int().min(0),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  ms: z.number().min(0),
  /** Why the aux model's answer was not used, if it was not. */
  error: z.string().optional(),
});
export type AuxUsage = z.infer<typeof AuxUsageSchema>;

/**
 * A router's answer for one request: an existing task or a new one, how sure it is,
 * which other tasks the request explicitly relates to, and whether it is meant for all.
 */
export interface RoutingDecision {
  target: { kind: "task"; task: string } | { kind: "new"; title: string };
  /** In [0, 1]; below the threshold the full history is kept. */
  confidence: number;
  related: string[];
  shared: boolean;
  reason: string;
  /** What decided it; `first`, `explicit` and `workspace` are unambiguous and beat a model. */
  basis: DecisionBasis;
  router: "lexical" | "model";
  aux?: AuxUsage;
  /**
   * Below the threshold, the tasks the request could belong to (every task the router does not
   * surely rule out): `fallback: "candidates"` keeps their history and leaves out the rest.
   * Undefined: any task could be meant.
   */
  candidates?: string[];
  /**
   * Below the threshold, the tasks something in the request itself points to (a file, code name,
   * word, id, checkout or back-reference of theirs): where its turn's edits may settle it. An edit
   * is where the model thought the request belonged; it settles the request only where it agrees.
   */
  pointsTo?: string[];
}

export type DecisionBasis = "first" | "explicit" | "workspace" | "shared" | "back-reference" | "content";

/** Rounds a confidence so that decisions serialise to the same bytes everywhere. */
export function roundConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}
