import type { FaithfulStage, FaithfulTask, Files } from "./faithful-playbook.js";
import { mentions } from "./what-was-said.js";

/** What the faithful agent writes for a stage request, and why. */
export interface FaithfulChoice {
  /** The task's earlier stages whose requirement it saw. */
  seen: string[];
  /** The task's earlier stages whose requirement it did not see: their rules are not applied. */
  lost: string[];
  /** Other tasks' requirements (`<task>/<stage>`) it applied here, taken for this task's. */
  leaked: string[];
  /** Other tasks' confusable requirements it saw but did not apply (a stage was lost: that variant wins). */
  confusableSeen: string[];
  /** `stage-2`, `stage-3 without stage-1`, `stage-3 with <task>/<stage>`. */
  wrote: string;
  writes: Files;
}

/**
 * The faithful agent's rules, given what the call said (`whatWasSaid`):
 * 1. an earlier stage of the task counts as seen when its rule phrase was said; the current
 *    stage is its own request, always seen;
 * 2. with every earlier stage seen, it writes the stage's files with all their rules; with some
 *    out of view, the stage's files without them;
 * 3. with every earlier stage seen, another task's requirement declared confusable with this
 *    stage (the two share a word) is applied when its rule phrase was said: the first such, in
 *    the order they are declared.
 */
export function chooseWrites(task: FaithfulTask, stage: FaithfulStage, said: string): FaithfulChoice {
  const earlier = task.stages.slice(0, task.stages.indexOf(stage));
  const seen = earlier.filter((candidate) => mentions(said, candidate.rule)).map((candidate) => candidate.id);
  const lost = earlier.filter((candidate) => !seen.includes(candidate.id)).map((candidate) => candidate.id);
  const confusable = stage.confusions.filter((confusion) => mentions(said, confusion.rule));
  const base = { seen, lost, leaked: [] as string[], confusableSeen: confusable.map((confusion) => confusion.with) };
  if (lost.length > 0) {
    const key = lost.join("+");
    const writes = stage.without.get(key);
    if (writes === undefined) throw new Error(`${task.id}/${stage.id}: no files for "without-${key}"`);
    return { ...base, wrote: `${stage.id} without ${lost.join(", ")}`, writes };
  }
  const leak = confusable[0];
  if (leak !== undefined)
    return {
      ...base,
      leaked: [leak.with],
      confusableSeen: confusable.slice(1).map((confusion) => confusion.with),
      wrote: `${stage.id} with ${leak.with}`,
      writes: leak.writes,
    };
  return { ...base, wrote: stage.id, writes: stage.writes };
}
