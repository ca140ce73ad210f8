import type { RoutingDecision } from "../../src/plugin/core/routing/decision.js";
import { emptyLedger, type Ledger, recordDecision } from "../../src/plugin/core/routing/ledger.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import { taskTitle } from "../../src/plugin/core/routing/task-title.js";
import { type LiveSession, newLiveSession, type StoredSession } from "../../src/plugin/sessions/live-session.js";
import type { SessionRouting } from "../../src/plugin/sessions/session-routing.js";
import type { SessionStore } from "../../src/plugin/sessions/session-store.js";
import { NO_SAVINGS, type SessionState } from "../../src/plugin/store/session-state-file.js";
import { lexicalRouter } from "./defaults.js";

/** Builds a ledger by routing message ids to tasks in order (`new:` opens a task). */
export function ledgerOf(entries: ReadonlyArray<[messageID: string, target: string, confidence?: number, extra?: Partial<RoutingDecision>]>): Ledger {
  let ledger = emptyLedger();
  for (const [messageID, target, confidence = 0.95, extra = {}] of entries) {
    const decision: RoutingDecision = {
      target: target.startsWith("new:") ? { kind: "new", title: target.slice(4) } : { kind: "task", task: target },
      confidence,
      related: [],
      shared: false,
      reason: "test",
      basis: "content",
      router: "lexical",
      ...extra,
    };
    ledger = recordDecision(ledger, messageID, decision).ledger;
  }
  return ledger;
}

/**
 * For tests of the plumbing around routing (persistence, memory), not of routing itself: the
 * lexical router, except that a task name the user gives that no task has ("Task B: ...")
 * opens a task, so the recorded two-task fixtures keep their two tasks whatever the fitted
 * parameters say about a short request.
 */
export const namedTaskRouter: Router = {
  name: "lexical",
  async route(request, index) {
    const label = request.signals.taskLabels[0];
    if (label !== undefined && !index.tasks().some((task) => task.labels.has(label))) {
      return {
        target: { kind: "new", title: taskTitle(request.text) },
        confidence: 0.95,
        related: [],
        shared: false,
        reason: `names task ${label}`,
        basis: "explicit",
        router: "lexical",
      };
    }
    return lexicalRouter.route(request, index);
  },
};

/**
 * A session store over fixed states, for handler tests that need no persistence: a session
 * without a state is a sub-agent session. Changes stay in memory.
 */
export function fixedStore(states: Readonly<Record<string, SessionState>>): SessionStore {
  const sessions = new Map<string, { sessionID: string; subagent: boolean; state: SessionState; live: LiveSession }>();
  const sessionOf = (sessionID: string) => {
    let session = sessions.get(sessionID);
    if (!session) {
      const state = states[sessionID];
      session = { sessionID, subagent: state === undefined, state: state ?? stateOf(sessionID, emptyLedger()), live: newLiveSession(sessionID) };
      sessions.set(sessionID, session);
    }
    return session;
  };
  const change = async (session: StoredSession, state: SessionState) => void Object.assign(sessionOf(session.sessionID), { state });
  return {
    step: async (sessionID, work) => work(sessionOf(sessionID)),
    commit: change,
    stage: (session, state) => void change(session, state),
    read: async (sessionID) => (sessionOf(sessionID).subagent ? undefined : sessionOf(sessionID).state),
    current: async (sessionID) => (sessionOf(sessionID).subagent ? undefined : sessionOf(sessionID).state),
    flush: async () => undefined,
    switchOff: async () => {
      throw new Error("not in this fake");
    },
    pickUp: async () => undefined,
    forget: (sessionID) => void sessions.delete(sessionID),
  };
}

/** A SessionRouting that routes nothing and learns nothing, beside `fixedStore`. */
export const idleRouting: SessionRouting = {
  route: async () => undefined,
  learn: async () => undefined,
  applyMove: async () => {
    throw new Error("not in this fake");
  },
  recalled: async () => undefined,
};

/** A session's state with nothing but the ledger (and records) given. */
export function stateOf(sessionID: string, ledger: Ledger, records: SessionState["records"] = {}): SessionState {
  return { sessionID, ledger, records, memoryUpdates: [], off: false, saved: { ...NO_SAVINGS } };
}
