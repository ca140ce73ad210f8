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

/** Highest first; the threshold (0.8) separates routed requests from fallbacks. */
export const CONFIDENCE_BINS: readonly ConfidenceBin[] = [
  { from: 0.95, colour: "#15803d", name: "≥ 0.95" },
  { from: 0.8, colour: "#84cc16", name: "0.8 – 0.95" },
  { from: 0.5, colour: "#f59e0b", name: "0.5 – 0.8" },
  { from: 0, colour: "#dc2626", name: "< 0.5" },
];

/** Requests the plug-in did not route (native mode, or no decision stored). */
export const UNROUTED_COLOUR = "#9ca3af";

export function confidenceColour(confidence: number | undefined): string {
  if (confidence === undefined) return UNROUTED_COLOUR;
  return (CONFIDENCE_BINS.find((bin) => confidence >= bin.from) ?? CONFIDENCE_BINS[CONFIDENCE_BINS.length - 1])?.colour ?? UNROUTED_COLOUR;
}
