import { AuxError, type AuxErrorCode } from "./aux-error.js";

/** Default pause after a source keeps failing or hangs. */
/** Failures in a row (of any kind but a timeout) before the pause. */
const FAILURES_BEFORE_COOLDOWN = 2;

/**
 * The auxiliary model's health: a call that times out, or a second failure in a row, pauses
 * every call for `cooldownMs`, so a broken or hanging source costs one timeout per pause
 * instead of one per request. Calls in the pause fail at once with `cooling-down`; the first
 * call after it is a probe (a success resets the count). `cooldownMs: 0` never pauses.
 */
export interface AuxHealth {
  /** An error to return without calling, while paused; undefined when a call may go ahead. */
  check(): AuxError | undefined;
  record(outcome: { ok: true } | { ok: false; code: AuxErrorCode }): void;
}

export function createAuxHealth(options: { cooldownMs: number; now?: () => number }): AuxHealth {
  const now = options.now ?? Date.now;
  let failures = 0;
  let lastCode: AuxErrorCode | undefined;
  let pausedUntil = 0;
  return {
    check() {
      const left = pausedUntil - now();
      if (left <= 0) return undefined;
      const message = `skipped: the auxiliary model failed ${failures} time(s) in a row (last: ${lastCode}); cooling down for ${Math.ceil(left / 1000)} s more`;
      return new AuxError({ code: "cooling-down", message });
    },
    record(outcome) {
      if (outcome.ok) {
        failures = 0;
        return;
      }
      if (outcome.code === "cooling-down") return;
      failures += 1;
      lastCode = outcome.code;
      if (options.cooldownMs > 0 && (outcome.code === "timeout" || failures >= FAILURES_BEFORE_COOLDOWN)) pausedUntil = now() + options.cooldownMs;
    },
  };
}
