import { describe, expect, it } from "vitest";
import { inputCost, simulatePrefixCache } from "../../src/lab/bench/metrics/prefix-cache.js";

const tokens = (count: number, start = 0) => Array.from({ length: count }, (_, index) => start + index);

describe("the prefix-cache simulation", () => {
  it("reuses the longest prefix shared with an earlier request, in whole blocks, from the minimum on", () => {
    const first = tokens(3000);
    const grown = [...tokens(2900), ...tokens(500, 10_000)];
    const rewritten = [...tokens(700), ...tokens(2000, 20_000)];
    expect(simulatePrefixCache([first, grown, rewritten])).toEqual([
      { input: 3000, cached: 0 },
      { input: 3400, cached: 2816 },
      // 700 shared tokens are below the 1,024-token minimum: nothing is cached.
      { input: 2700, cached: 0 },
    ]);
  });

  it("prices cached reads at the given ratio", () => {
    expect(
      inputCost(
        [
          { input: 1000, cached: 0 },
          { input: 2000, cached: 1280 },
        ],
        0.1,
      ),
    ).toBeCloseTo(1000 + 720 + 128);
  });
});
