import type { RoutingDecision } from "../../src/core/routing/decision.js";
import { emptyLedger, type Ledger, recordDecision } from "../../src/core/routing/ledger.js";
import { lexicalRouter, type Router } from "../../src/core/routing/router.js";
import { taskTitle } from "../../src/core/routing/task-title.js";
import type { SessionRouting } from "../../src/plugin/session-routing.js";
import { NO_SAVINGS, type SessionState } from "../../src/store/session-state-file.js";

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
      return { target: { kind: "new", title: taskTitle(request.text) }, confidence: 0.95, related: [], shared: false, reason: `names task ${label}`, basis: "explicit", router: "lexical" };
    }
    return lexicalRouter.route(request, index);
  },
};

/** A read-only SessionRouting over fixed states, for handler tests that need no routing of their own. */
export function fixedRouting(states: Readonly<Record<string, SessionState>>): SessionRouting {
  const unsupported = async (): Promise<never> => {
    throw new Error("not in this fake");
  };
  return {
    route: async () => undefined,
    forCall: async (sessionID) => {
      const state = states[sessionID];
      return state ? { ledger: state.ledger, off: state.off } : undefined;
    },
    noteCall: async () => undefined,
    pickUp: async () => undefined,
    flush: async () => undefined,
    move: unsupported,
    setOff: unsupported,
    learn: async () => undefined,
    forget: () => undefined,
    snapshot: async (sessionID) => states[sessionID],
    current: async (sessionID) => states[sessionID],
    commitRecord: async () => undefined,
  };
}

/** A session's state with nothing but the ledger (and records) given. */
export function stateOf(sessionID: string, ledger: Ledger, records: SessionState["records"] = {}): SessionState {
  return { sessionID, ledger, records, memoryUpdates: [], off: false, saved: { ...NO_SAVINGS } };
}
