import { describe, expect, it } from "vitest";
import { conversationOverlap, eachAlone, linkToPrevious, maxWeightMatching } from "../../src/lab/route-eval/conversation-overlap.js";

/** Labels from a compact string: one character per message ("aabba"). */
const labels = (text: string) => [...text];

describe("one-to-one overlap", () => {
  it("is 100 for the same clustering under other names", () => {
    const figures = conversationOverlap([{ gold: labels("aabbca"), predicted: labels("xxyyzx") }]);
    expect(figures.oneToOne).toBe(100);
    expect(figures.scaledVI).toBeCloseTo(100, 10);
    expect(figures.exact).toEqual({ matched: 2, gold: 2, predicted: 2, precision: 100, recall: 100, f1: 100 });
  });

  it("pairs conversations one to one: one predicted conversation covers one gold conversation only", () => {
    // Gold a (3 messages) and b (2) merged into x: x pairs with a, b's messages count for nothing.
    expect(conversationOverlap([{ gold: labels("aaabb"), predicted: labels("xxxxx") }]).oneToOne).toBe(60);
  });

  it("finds the best pairing where the greedy one is worse", () => {
    // Overlaps: a-x 3, a-y 2, b-x 2, b-y 0. Greedy takes a-x (3) and leaves b-y (0): 3.
    // The best pairing is a-y + b-x: 4 of 7 messages.
    const gold = labels("aaaaabb");
    const predicted = labels("xxxyyxx");
    expect(conversationOverlap([{ gold, predicted }]).oneToOne).toBeCloseTo((100 * 4) / 7, 10);
  });

  it("agrees with trying every pairing on small random tables", () => {
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let trial = 0; trial < 200; trial++) {
      const rows = 1 + next(5);
      const columns = 1 + next(5);
      const weights = Array.from({ length: rows }, () => Array.from({ length: columns }, () => next(6)));
      expect(maxWeightMatching(weights)).toBe(bruteForceMatching(weights));
    }
  });

  it("takes more gold than predicted conversations and the other way round", () => {
    expect(maxWeightMatching([[5], [7], [1]])).toBe(7);
    expect(maxWeightMatching([[5, 7, 1]])).toBe(7);
    expect(maxWeightMatching([])).toBe(0);
  });
});

describe("scaled variation of information", () => {
  it("is 1 - VI / log2(n), as a percentage", () => {
    // Gold: 2 conversations of 2; predicted: all 4 in one. H(G|P) = 1 bit, H(P|G) = 0: VI = 1, log2(4) = 2.
    expect(conversationOverlap([{ gold: labels("aabb"), predicted: labels("xxxx") }]).scaledVI).toBeCloseTo(50, 10);
    // Every message alone against 2 of 2: H(P|G) = 1 bit, H(G|P) = 0.
    expect(conversationOverlap([{ gold: labels("aabb"), predicted: labels("wxyz") }]).scaledVI).toBeCloseTo(50, 10);
    // Crossed halves: gold aabb, predicted xyxy: H(G|P) = H(P|G) = 1: VI = 2 = log2(4).
    expect(conversationOverlap([{ gold: labels("aabb"), predicted: labels("xyxy") }]).scaledVI).toBeCloseTo(0, 10);
  });

  it("is 100 for a single message", () => {
    expect(conversationOverlap([{ gold: ["a"], predicted: ["x"] }]).scaledVI).toBe(100);
  });
});

describe("exact match", () => {
  it("leaves out conversations of one message on both sides", () => {
    // Gold: a (3 messages), b (1), c (2). Predicted: a exactly, b+c merged.
    const figures = conversationOverlap([{ gold: labels("aabacc"), predicted: labels("xxyxyy") }]);
    expect(figures.exact).toMatchObject({ matched: 1, gold: 2, predicted: 2, precision: 50, recall: 50, f1: 50 });
  });

  it("is 0 when nothing matches, without dividing by zero", () => {
    expect(conversationOverlap([{ gold: labels("abc"), predicted: labels("xyz") }]).exact).toMatchObject({ matched: 0, precision: 0, recall: 0, f1: 0 });
  });
});

describe("pooled streams", () => {
  it("keeps streams apart: the same label in two streams is two conversations", () => {
    const pooled = conversationOverlap([
      { gold: labels("aab"), predicted: labels("xxx") },
      { gold: labels("ab"), predicted: labels("xy") },
    ]);
    expect(pooled.messages).toBe(5);
    expect(pooled.goldConversations).toBe(4);
    expect(pooled.predictedConversations).toBe(3);
    // Matched 2 of 3, then 2 of 2.
    expect(pooled.oneToOne).toBeCloseTo(80, 10);
    expect(pooled.exact).toMatchObject({ matched: 0, gold: 1, predicted: 1 });
  });

  it("takes VI over the pooled table, not as a mean of the streams'", () => {
    const first = { gold: labels("aabb"), predicted: labels("xxxx") };
    const second = { gold: labels("aabb"), predicted: labels("xxyy") };
    // Pooled n = 8: H(G|P) = 0.5 bit, H(P|G) = 0, log2(8) = 3.
    expect(conversationOverlap([first, second]).scaledVI).toBeCloseTo(100 - 50 / 3, 10);
  });

  it("refuses streams of unequal length and no messages", () => {
    expect(() => conversationOverlap([{ gold: labels("ab"), predicted: labels("x") }])).toThrow("stream 0: 2 gold labels but 1 predicted");
    expect(() => conversationOverlap([])).toThrow("no messages");
  });
});

describe("baselines", () => {
  it("links every message to the previous one: a single conversation", () => {
    expect(new Set(linkToPrevious([false, false, false], "linked")).size).toBe(1);
    expect(new Set(linkToPrevious([false, false, false], "alone")).size).toBe(1);
  });

  it("puts system messages in the conversation or alone", () => {
    const system = [false, true, false, true];
    expect(new Set(linkToPrevious(system, "linked")).size).toBe(1);
    const alone = linkToPrevious(system, "alone");
    expect(alone[0]).toBe(alone[2]);
    expect(new Set(alone).size).toBe(3);
  });

  it("scores the single conversation as the paper's Previous row reads: exact match 0 unless the stream is one conversation", () => {
    const gold = labels("aabbbc");
    const figures = conversationOverlap([
      {
        gold,
        predicted: linkToPrevious(
          gold.map(() => false),
          "linked",
        ),
      },
    ]);
    expect(figures.oneToOne).toBe(50);
    expect(figures.exact.f1).toBe(0);
  });

  it("puts every message alone", () => {
    expect(eachAlone(3)).toEqual(["alone-0", "alone-1", "alone-2"]);
    expect(conversationOverlap([{ gold: labels("aabc"), predicted: eachAlone(4) }]).oneToOne).toBe(75);
  });
});

function bruteForceMatching(weights: number[][]): number {
  const columns = weights[0]?.length ?? 0;
  const best = (row: number, used: Set<number>): number => {
    if (row === weights.length) return 0;
    let value = best(row + 1, used);
    for (let column = 0; column < columns; column++) {
      if (used.has(column)) continue;
      used.add(column);
      value = Math.max(value, (weights[row]?.[column] ?? 0) + best(row + 1, used));
      used.delete(column);
    }
    return value;
  };
  return best(0, new Set());
}
