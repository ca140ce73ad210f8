import { existsSync } from "node:fs";
import { join } from "node:path";
import { type LabelledSession, readLabelledSessions } from "../../lab/route-eval/labelled-sessions.js";
import { generateSessions } from "../generate-sessions.js";
import { DATA_DIR_VARIABLE, materialisedDataDir, materialisedSessionsFile, type ThreadSet } from "../thread-sessions/thread-references.js";

/**
 * Generated sessions that leave-one-style-out fits on (besides the corpus's train split), each
 * time without one style. Other seeds are for measuring (route-eval-styles uses 2000).
 */
export const GENERATED_FIT = { seed: 1000, sessions: 60 } as const;
/** Folds the generated sessions fall into for calibration, as the corpus's repositories do. */
const GENERATED_FOLDS = 5;

/**
 * The splits the committed router is fitted on, by the names the parameters record: the corpus's
 * train split, and real thread sessions kept for development. The second is kept in the
 * repository as references only: its sessions are read from the materialised set
 * (`<data dir>/routing-threads-dev/sessions.jsonl`, scripts/build-thread-sessions.mjs).
 */
export const FITTING_SPLITS = ["fixtures/routing-corpus/train", "fixtures/routing-threads-dev"] as const;

/** The fitting splits that are materialised outside the repository, and the set each is read from. */
const MATERIALISED_SPLITS: Partial<Record<(typeof FITTING_SPLITS)[number], ThreadSet>> = { "fixtures/routing-threads-dev": "routing-threads-dev" };

/** Where a fitting split's sessions are read from: the repository, or the materialised data directory. */
export function fittingSplitPath(root: string, split: (typeof FITTING_SPLITS)[number], dataDir: string = materialisedDataDir(root)): string {
  const set = MATERIALISED_SPLITS[split];
  return set === undefined ? join(root, ...split.split("/")) : materialisedSessionsFile(dataDir, set);
}

/** Whether every fitting split can be read (the materialised ones have been built). */
export function fittingSessionsAvailable(root: string, dataDir: string = materialisedDataDir(root)): boolean {
  return FITTING_SPLITS.every((split) => existsSync(fittingSplitPath(root, split, dataDir)));
}

/**
 * What `npm run fit-router` fits the committed parameters on, with the names it records. The
 * corpus's dev and test splits, the chat set, the held-out thread sessions
 * (fixtures/routing-threads) and the generated sessions are never fitted on for the committed
 * router (rules were chosen on dev, on routing-threads-dev and on generated seeds 1 and 2).
 * `dataDir` is where the materialised thread sets are (default: `$OPENCODE_RCM_DATA`, else
 * `../rcm-data` beside the repository); without them this throws, saying how to build them.
 */
export async function fittingSessions(root: string, dataDir: string = materialisedDataDir(root)): Promise<{ sessions: LabelledSession[]; splits: string[] }> {
  const sessions: LabelledSession[] = [];
  for (const split of FITTING_SPLITS) {
    const path = fittingSplitPath(root, split, dataDir);
    if (MATERIALISED_SPLITS[split] !== undefined && !existsSync(path)) {
      throw new Error(
        `${split} holds references only and its sessions are not materialised: ${path} does not exist. ` +
          "Build them outside the repository: fetch github:zaniebot/unmaintain-rendered and github:brson/rust-issue-archive, then " +
          "npm run build && node scripts/build-thread-sessions.mjs --snapshot zaniebot/unmaintain-rendered=<git dir> --snapshot brson/rust-issue-archive=<git dir> " +
          `(it writes ../rcm-data beside the repository; elsewhere: --out <dir>, then ${DATA_DIR_VARIABLE}=<dir> or fit-router.mjs --rcm-data <dir>). See ${split}/README.md.`,
      );
    }
    sessions.push(...(await readLabelledSessions(path)));
  }
  return { sessions, splits: [...FITTING_SPLITS] };
}

/** The generated sessions leave-one-style-out fits on, each in one of a few folds (its `repo`). */
export function generatedForFit(): LabelledSession[] {
  return generateSessions(GENERATED_FIT).map((session, position) => ({ ...session, repo: `generated/fold-${position % GENERATED_FOLDS}` }));
}
