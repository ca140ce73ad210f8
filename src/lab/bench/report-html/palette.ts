import { DEFAULT_OPTIONS } from "../../../plugin/config/options-schema.js";
/** The report's colours: one per mode, and bins of routing confidence. */

export const MODE_COLOURS: Readonly<Record<string, string>> = {
  native: "#6b7280",
  router: "#2563eb",
  memory: "#d97706",
  full: "#059669",
};

export interface ConfidenceBin {
  /** The lowest confidence in the bin. */
  from: number;
  colour: string;
  name: string;
}

const CONFIDENT = 0.95;
const LOW = 0.5;

/**
 * Highest first; the plug-in's threshold (run.json's, the default 0.8 for older runs)
 * separates routed requests (greens) from fallbacks (amber, red): ≥ 0.95, threshold – 0.95,
 * 0.5 – threshold, < 0.5, a bin left out where the threshold is at or beyond its edge.
 */
export function confidenceBins(threshold: number): ConfidenceBin[] {
  const bins: ConfidenceBin[] = [];
  if (threshold < CONFIDENT) bins.push({ from: CONFIDENT, colour: "#15803d", name: `≥ ${CONFIDENT}` });
  bins.push(
    threshold < CONFIDENT
      ? { from: threshold, colour: "#84cc16", name: `${threshold} – ${CONFIDENT}` }
      : { from: threshold, colour: "#15803d", name: `≥ ${threshold}` },
  );
  if (threshold > LOW) bins.push({ from: LOW, colour: "#f59e0b", name: `${LOW} – ${threshold}` });
  if (threshold > 0) bins.push({ from: 0, colour: "#dc2626", name: `< ${Math.min(LOW, threshold)}` });
  return bins;
}

/** The bins at the default threshold. */
export const CONFIDENCE_BINS: readonly ConfidenceBin[] = confidenceBins(DEFAULT_OPTIONS.confidenceThreshold);

/** Requests the plug-in did not route (native mode, or no decision stored). */
export const UNROUTED_COLOUR = "#9ca3af";

export function confidenceColour(confidence: number | undefined, bins: readonly ConfidenceBin[] = CONFIDENCE_BINS): string {
  if (confidence === undefined) return UNROUTED_COLOUR;
  return (bins.find((bin) => confidence >= bin.from) ?? bins[bins.length - 1])?.colour ?? UNROUTED_COLOUR;
}
