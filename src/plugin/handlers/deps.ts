import type { Options } from "../config/options-schema.js";
import type { CallBudgets } from "../sessions/call-budgets.js";
import type { Guard } from "../sessions/fail-open-guard.js";
import type { Logger } from "../sessions/logger.js";
import type { SessionMemory } from "../sessions/session-memory.js";
import type { SessionRouting } from "../sessions/session-routing.js";
import type { LiveSessions, SessionStore } from "../sessions/session-store.js";
import type { VerbDispatcher } from "../sessions/verb-dispatcher.js";

/** Everything a hook handler needs, built once by the composition root. */
export interface PluginDeps {
  options: Options;
  logger: Logger;
  guard: Guard;
  /** Everything held in memory about each session, one live object per session (live-session.ts). */
  sessions: LiveSessions;
  /** Present in the modes that route (router, memory, full): the sessions' persisted state. */
  store?: SessionStore | undefined;
  /** Present with the store. */
  routing?: SessionRouting | undefined;
  /** Present with the store: moves, splits, off and on, from every surface. */
  verbs?: VerbDispatcher | undefined;
  /** Present in the modes with memory (memory, full). */
  memory?: SessionMemory | undefined;
  /** With memory: how much a call may carry before OpenCode compacts (when the model's limits are known). */
  budgets?: CallBudgets | undefined;
}
