import type { Logger } from "./logger.js";

type GuardedHook = "chat.message" | "transform" | "tool gate" | "event" | "compacting" | "memory update" | "turn end";

export type Guard = (hook: GuardedHook, sessionID: string | undefined, run: () => Promise<void> | void) => Promise<void>;

/** What a failure leaves in place, where it is not the native history. */
const FALLBACKS: Partial<Record<GuardedHook, string>> = {
  "memory update": "the previous records stay in use",
  "tool gate": "the plug-in's tools stay offered for this call",
  "turn end": "the session's state is written at its next step",
};

/**
 * Runs a hook body so that it can never fail a turn: an exception is logged once per
 * session and hook, then swallowed. Handlers apply their result only as their last
 * step, so a throw leaves OpenCode's data untouched.
 */
export function createFailOpenGuard(logger: Logger): Guard {
  const reported = new Set<string>();
  return async (hook, sessionID, run) => {
    try {
      await run();
    } catch (error) {
      const key = `${sessionID ?? "(no session)"}\u0000${hook}`;
      if (reported.has(key)) return;
      reported.add(key);
      const fallback = FALLBACKS[hook] ?? "falling back to native history for this call";
      await logger.log("error", `${hook} failed; ${fallback}`, {
        sessionID: sessionID ?? null,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  };
}
