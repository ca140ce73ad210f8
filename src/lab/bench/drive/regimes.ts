/**
 * The model windows a scripted-agent run can use. `roomy`: nothing is ever compacted.
 * `tight`: a small model (16k context, 8k output, so OpenCode compacts at 8k), where OpenCode
 * compacts while a task is suspended, and the scripted summarizer keeps only the latest request
 * (`agent/lossy-summary.ts`), as a small model's summary can.
 */
export const REGIMES = {
  roomy: { context: 200_000, output: 8_000, description: "roomy window (200k context): OpenCode never compacts" },
  tight: {
    context: 16_000,
    output: 8_000,
    description: "tight window (16k context, 8k output): OpenCode compacts, and the summary keeps only the latest request",
  },
} as const;

export type Regime = keyof typeof REGIMES;
export const REGIME_NAMES = Object.keys(REGIMES) as Regime[];
export const DEFAULT_REGIME: Regime = "roomy";

export function isRegime(value: string): value is Regime {
  return Object.hasOwn(REGIMES, value);
}
