import type { Ledger, LedgerEntry } from "../core/routing/ledger.js";
import { plural } from "./words.js";

/** What the model recalled (`rcm_recall`) while answering a request, per task in order: "t1 (3 exchanges), t3 (1 exchange)". */
export function recallSummary(entry: Pick<LedgerEntry, "recalled">): string | undefined {
  const exchanges = new Map<string, number>();
  for (const recall of entry.recalled ?? []) exchanges.set(recall.task, (exchanges.get(recall.task) ?? 0) + recall.exchanges);
  if (exchanges.size === 0) return undefined;
  return [...exchanges].map(([task, count]) => `${task} (${plural(count, "exchange")})`).join(", ");
}

/** `/rcm why`: what the model recalled while answering the call's request, and whether that settled it. */
export function recallLines(ledger: Ledger, requestID: string | undefined): string[] {
  const entry = requestID === undefined ? undefined : ledger.decisions[requestID];
  const summary = entry && recallSummary(entry);
  if (!entry || !summary) return [];
  const settled = entry.relabelled?.by === "recall" ? `; routed unsurely to ${entry.relabelled.from}, it now counts for ${entry.task}` : "";
  return [`  The model recalled hidden history with rcm_recall: ${summary}${settled}`];
}
