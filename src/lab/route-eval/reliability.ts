/** One confidence bin of a reliability diagram. */
interface ReliabilityBin {
  /** Inclusive lower and exclusive upper bound (the last bin includes 1). */
  from: number;
  to: number;
  count: number;
  /** Mean confidence of the decisions in the bin (0 when empty). */
  confidence: number;
  /** Share of them that were right (0 when empty). */
  accuracy: number;
}

export interface Reliability {
  bins: ReliabilityBin[];
  /** Sum over bins of (bin share) x |accuracy - mean confidence|. */
  expectedCalibrationError: number;
}

const RELIABILITY_BINS = 10;

/** Bins decisions by confidence and compares each bin's mean confidence with how often it was right. */
export function reliabilityOf(decisions: ReadonlyArray<{ confidence: number; correct: boolean }>): Reliability {
  const bins = Array.from({ length: RELIABILITY_BINS }, (_, index) => ({
    from: index / RELIABILITY_BINS,
    to: (index + 1) / RELIABILITY_BINS,
    count: 0,
    confidenceSum: 0,
    right: 0,
  }));
  for (const decision of decisions) {
    const bin = bins[Math.min(RELIABILITY_BINS - 1, Math.floor(decision.confidence * RELIABILITY_BINS))];
    if (!bin) continue;
    bin.count += 1;
    bin.confidenceSum += decision.confidence;
    if (decision.correct) bin.right += 1;
  }
  const total = decisions.length;
  let error = 0;
  const result = bins.map(({ from, to, count, confidenceSum, right }) => {
    const confidence = count === 0 ? 0 : confidenceSum / count;
    const accuracy = count === 0 ? 0 : right / count;
    if (total > 0) error += (count / total) * Math.abs(accuracy - confidence);
    return { from: round(from), to: round(to), count, confidence: round(confidence), accuracy: round(accuracy) };
  });
  return { bins: result, expectedCalibrationError: round(error) };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
