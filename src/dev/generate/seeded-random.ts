/** A small deterministic source of randomness: the same seed gives the same draws, always. */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; `weights` pairs each item with a positive weight. */
  weighted<T>(weights: ReadonlyArray<readonly [T, number]>): T;
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct items in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

/** mulberry32: 32 bits of state, good enough for test data and identical on every platform. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[int(0, items.length - 1)] as T;
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(0, i);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  };
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick,
    weighted: <T>(weights: ReadonlyArray<readonly [T, number]>): T => {
      const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of weights) {
        roll -= weight;
        if (roll < 0) return item;
      }
      const last = weights[weights.length - 1];
      if (!last) throw new Error("weighted pick from an empty list");
      return last[0];
    },
    shuffle,
    sample: (items, count) => shuffle(items).slice(0, count),
  };
}
