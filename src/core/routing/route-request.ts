import { type Ledger, type LedgerEntry, type LedgerTask, recordDecision } from "./ledger.js";
import type { Router } from "./router.js";
import { extractSignals } from "./signals.js";
import type { TaskIndex } from "./task-index.js";

export interface RoutedRequest {
  ledger: Ledger;
  entry: LedgerEntry;
  task: LedgerTask;
}

/**
 * Routes one user request and records the decision: the ledger gains the decision (and the
 * task it opened), the index learns of a new task and which task is now current. A request
 * already in the ledger keeps its decision. The request's own evidence is folded in by
 * the caller once its work is known.
 */
export async function routeRequest(options: {
  router: Router;
  ledger: Ledger;
  index: TaskIndex;
  messageID: string;
  text: string;
  sessionID?: string | undefined;
}): Promise<RoutedRequest> {
  const { router, ledger, index, messageID, text, sessionID } = options;
  const known = ledger.decisions[messageID];
  const result = known
    ? { ledger, entry: known, task: ledger.tasks.find((task) => task.id === known.task) as LedgerTask }
    : recordDecision(ledger, messageID, await router.route({ text, signals: extractSignals(text), sessionID }, index));
  index.addTask(result.task.id, result.task.title);
  index.current = result.task.id;
  return result;
}
