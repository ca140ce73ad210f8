import type { RoutingDecision } from "./decision.js";
import { isSettled, type Ledger, type LedgerEntry, type LedgerTask, recordDecision } from "./ledger.js";
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
 * the caller once its work is known. An unsure decision leaves the index with no current
 * task and its task's title unread: a guess is never evidence for the next decision.
 */
export async function routeRequest(options: {
  router: Router;
  ledger: Ledger;
  index: TaskIndex;
  messageID: string;
  text: string;
  sessionID?: string | undefined;
  /** Decisions at or above it are sure: evidence for later routing. */
  threshold: number;
  /** Given the router's decision, the request may resume an earlier session's task instead (session-resume.ts): the ledger with it. */
  resume?: ((decision: RoutingDecision, signals: ReturnType<typeof extractSignals>) => Promise<RoutedRequest | undefined>) | undefined;
}): Promise<RoutedRequest> {
  const { router, ledger, index, messageID, text, sessionID, threshold } = options;
  // A task split out into its own session takes no new requests here.
  for (const task of ledger.tasks) if (task.split) index.closeTask(task.id);
  const known = ledger.decisions[messageID];
  const decide = async (): Promise<RoutedRequest> => {
    const signals = extractSignals(text);
    const decision = await router.route({ text, signals, sessionID }, index);
    return (await options.resume?.(decision, signals)) ?? recordDecision(ledger, messageID, decision);
  };
  const result = known ? { ledger, entry: known, task: ledger.tasks.find((task) => task.id === known.task) as LedgerTask } : await decide();
  const settled = isSettled(result.entry, threshold);
  index.addTask(result.task.id, result.task.title, { settled });
  if (!result.entry.shared) index.current = settled ? result.task.id : undefined;
  return result;
}
