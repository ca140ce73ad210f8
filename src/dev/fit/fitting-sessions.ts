import { join } from "node:path";
import { type LabelledSession, readLabelledSessions } from "../../lab/route-eval/labelled-sessions.js";
import { generateSessions } from "../generate-sessions.js";

/**
 * Generated sessions that leave-one-style-out fits on (besides the corpus's train split), each
 * time without one style. Other seeds are for measuring (route-eval-styles uses 2000).
 */
export const GENERATED_FIT = { seed: 1000, sessions: 60 } as const;
/** Folds the generated sessions fall into for calibration, as the corpus's repositories do. */
const GENERATED_FOLDS = 5;

/** The splits the committed router is fitted on: the corpus's train split, and real thread sessions kept for development. */
export const FITTING_SPLITS = ["fixtures/routing-corpus/train", "fixtures/routing-threads-dev"] as const;

/**
 * What `npm run fit-router` fits the committed parameters on, with the names it records. The
 * corpus's dev and test splits, the chat set, the held-out thread sessions
 * (fixtures/routing-threads) and the generated sessions are never fitted on for the committed
 * router (rules were chosen on dev, on routing-threads-dev and on generated seeds 1 and 2).
 */
export async function fittingSessions(root: string): Promise<{ sessions: LabelledSession[]; splits: string[] }> {
  const sessions: LabelledSession[] = [];
  for (const split of FITTING_SPLITS) sessions.push(...(await readLabelledSessions(join(root, ...split.split("/")))));
  return { sessions, splits: [...FITTING_SPLITS] };
}

/** The generated sessions leave-one-style-out fits on, each in one of a few folds (its `repo`). */
export function generatedForFit(): LabelledSession[] {
  return generateSessions(GENERATED_FIT).map((session, position) => ({ ...session, repo: `generated/fold-${position % GENERATED_FOLDS}` }));
}
