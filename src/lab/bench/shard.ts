import type { Mode } from "../../plugin/config/options-schema.js";
import { resultKey } from "./run-dir/result-line.js";
import type { SessionSpec } from "./suite/schema.js";

/** `--shard i/n`: the i-th (1-based) of n shares of a run's session runs. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard | string {
  const found = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(found?.[1]);
  const count = Number(found?.[2]);
  if (!found || count < 1 || index < 1 || index > count) return `--shard must be i/n with 1 <= i <= n (e.g. 2/8), not "${text}"`;
  return { index, count };
}

/**
 * The session runs (a session in a mode) of one shard, as result keys. Deterministic and
 * balanced by expected size (a run's requests): the longest runs first, each to the shard
 * with the fewest requests so far (the lowest index on a tie), so every shard of the same
 * suite and settings computes the same split without talking to the others.
 */
export function shardRuns(specs: readonly SessionSpec[], modes: readonly Mode[], shard: Shard): Set<string> {
  const runs = modes
    .flatMap((mode) => specs.map((spec) => ({ key: resultKey({ session_id: spec.session_id, mode }), size: spec.schedule.length })))
    .sort((a, b) => b.size - a.size || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const loads = new Array<number>(shard.count).fill(0);
  const mine = new Set<string>();
  for (const run of runs) {
    let target = 0;
    for (let index = 1; index < shard.count; index += 1) if ((loads[index] ?? 0) < (loads[target] ?? 0)) target = index;
    loads[target] = (loads[target] ?? 0) + run.size;
    if (target === shard.index - 1) mine.add(run.key);
  }
  return mine;
}
