import type { Options } from "../config/options-schema.js";

type SimulatedHook = Options["simulateFailure"][number];

/** Testing only: throws inside a guarded hook body when `simulateFailure` names the hook. */
export function throwIfSimulated(options: Options, hook: SimulatedHook): void {
  if (options.simulateFailure.includes(hook)) throw new Error(`simulated ${hook} failure`);
}
