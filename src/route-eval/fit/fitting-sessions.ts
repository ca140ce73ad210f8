import { join } from "node:path";
import { generateSessions } from "../generate-sessions.js";
import { type LabelledSession, readLabelledSessions } from "../labelled-sessions.js";

/**
 * Generated sessions that leave-one-style-out fits on (besides the corpus's train split), each
 * time without one style. Other seeds are for measuring (route-eval-styles uses 2000).
 */
export const GENERATED_FIT = { seed: 1000, sessions: 60 } as const;
/** Folds the generated sessions fall into for calibration, as the corpus's repositories do. */
const GENERATED_FOLDS = 5;

/**
 * What `npm run fit-router` fits the committed parameters on, with the names it records: the
 * corpus's train split only. The dev and test splits, the other corpora and the generated
 * sessions are never fitted on for the committed router (rules were chosen on dev and on
 * generated seeds 1 and 2).
 */
export async function fittingSessions(root: string): Promise<{ sessions: LabelledSession[]; splits: string[] }> {
  return { sessions: await readLabelledSessions(join(root, "fixtures", "routing-corpus", "train")), splits: ["fixtures/routing-corpus/train"] };
}

/** The generated sessions leave-one-style-out fits on, each in one of a few folds (its `repo`). */
export function generatedForFit(): LabelledSession[] {
  return generateSessions(GENERATED_FIT).map((session, position) => ({ ...session, repo: `generated/fold-${position % GENERATED_FOLDS}` }));
}
