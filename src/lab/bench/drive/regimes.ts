/**
 * The model windows a scripted-agent run can use. `roomy`: nothing is ever compacted.
 * `tight`: a small model (16k context, 8k output, so OpenCode compacts at 8k), where OpenCode
 * compacts while a task is suspended, and the scripted summarizer keeps only the latest request
 * (`agent/lossy-summary.ts`), as a small model's summary can. `opencode2`: the window on
 * OpenCode 2 where it differs: 2.0.15 keeps more room free before it compacts, so in 16k it
 * compacts before every request; in 28k it compacts at about the 8k input tokens where 1.18
 * does in 16k (measured on the mini suite: docs/opencode-2.md).
 */
const REGIMES = {
  roomy: { context: 200_000, output: 8_000, description: "roomy window (200k context): OpenCode never compacts" },
  tight: {
    context: 16_000,
    output: 8_000,
    description: "tight window (16k context, 8k output): OpenCode compacts, and the summary keeps only the latest request",
    opencode2: {
      context: 28_000,
      description:
        "tight window (on OpenCode 2 28k context, 8k output, where it compacts as 1.18 does in 16k): OpenCode compacts, and the summary keeps only the latest request",
    },
  },
} as const;

export type Regime = keyof typeof REGIMES;
export const REGIME_NAMES = Object.keys(REGIMES) as Regime[];
export const DEFAULT_REGIME: Regime = "roomy";

export function isRegime(value: string): value is Regime {
  return Object.hasOwn(REGIMES, value);
}

/** A regime's window and what it is, on a host (OpenCode 2's own where the regime has one). */
export function regimeWindow(regime: Regime, host: string | undefined): { context: number; output: number; description: string } {
  const window: { context: number; output: number; description: string; opencode2?: { context: number; description: string } } = REGIMES[regime];
  const own = host === "opencode-2" ? window.opencode2 : undefined;
  return { context: own?.context ?? window.context, output: window.output, description: own?.description ?? window.description };
}
