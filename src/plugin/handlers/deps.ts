import type { Options } from "../config/options-schema.js";
import type { CallBudgets } from "../sessions/call-budgets.js";
import type { Guard } from "../sessions/fail-open-guard.js";
import type { Logger } from "../sessions/logger.js";
import type { SessionFlags } from "../sessions/session-flags.js";
import type { SessionMemory } from "../sessions/session-memory.js";
import type { SessionRouting } from "../sessions/session-routing.js";
import type { SessionSplit } from "../sessions/session-split.js";
import type { SessionStore } from "../sessions/session-store.js";

/** Everything a hook handler needs, built once by the composition root. */
export interface PluginDeps {
  options: Options;
  logger: Logger;
  guard: Guard;
  sessions: SessionFlags;
  /** Present in the modes that route (router, memory, full): the sessions' persisted state. */
  store?: SessionStore | undefined;
  /** Present with the store. */
  routing?: SessionRouting | undefined;
  /** Present with the store: `/rcm split`. */
  split?: SessionSplit | undefined;
  /** Present in the modes with memory (memory, full). */
  memory?: SessionMemory | undefined;
  /** With memory: how much a call may carry before OpenCode compacts (when the model's limits are known). */
  budgets?: CallBudgets | undefined;
}
