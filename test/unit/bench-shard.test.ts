import { describe, expect, it } from "vitest";
import { parseShard, shardRuns } from "../../src/lab/bench/shard.js";
import type { SessionSpec } from "../../src/lab/bench/suite/schema.js";
import type { Mode } from "../../src/plugin/config/options-schema.js";

/** Sessions with 4 (uninterrupted) and 13 (switched) requests, as in the mini suite. */
const specs: SessionSpec[] = Array.from({ length: 30 }, (_, index) => {
  const switched = index % 2 === 1;
  return {
    session_id: `t${Math.floor(index / 2)}__${switched ? "switched" : "uninterrupted"}`,
    focus: `t${Math.floor(index / 2)}`,
    condition: switched ? "switched" : "uninterrupted",
    locality: "near",
    interruptions: switched ? ["x"] : [],
    schedule: Array.from({ length: switched ? 13 : 4 }, () => ({ task: "t", stage: "s" })),
  };
});
const modes: Mode[] = ["native", "router", "memory", "full"];
const size = new Map<string, number>(modes.flatMap((mode) => specs.map((spec) => [`${mode}\u0000${spec.session_id}`, spec.schedule.length] as const)));

describe("--shard i/n", () => {
  it("puts every session run in exactly one of n shards, the same way every time", () => {
    for (const count of [1, 2, 3, 7, 120, 200]) {
      const shards = Array.from({ length: count }, (_, index) => shardRuns(specs, modes, { index: index + 1, count }));
      const all = shards.flatMap((shard) => [...shard]);
      expect(all).toHaveLength(specs.length * modes.length);
      expect(new Set(all).size).toBe(all.length);
      expect(shards.map((shard) => [...shard])).toEqual(Array.from({ length: count }, (_, index) => [...shardRuns(specs, modes, { index: index + 1, count })]));
    }
  });

  it("balances the shards by requests, within one run's size", () => {
    for (const count of [2, 3, 8]) {
      const loads = Array.from({ length: count }, (_, index) =>
        [...shardRuns(specs, modes, { index: index + 1, count })].reduce((sum, key) => sum + (size.get(key) ?? 0), 0),
      );
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(13);
    }
  });

  it("reads i/n and says what is wrong otherwise", () => {
    expect(parseShard("2/8")).toEqual({ index: 2, count: 8 });
    for (const bad of ["0/4", "5/4", "2", "a/b", "1/0"]) expect(parseShard(bad)).toMatch(/--shard must be i\/n with 1 <= i <= n/);
  });
});
