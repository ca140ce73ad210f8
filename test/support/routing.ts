import { emptyLedger, recordDecision, type Ledger } from "../../src/core/routing/ledger.js";
import type { RoutingDecision } from "../../src/core/routing/decision.js";

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
