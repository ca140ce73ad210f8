import type { MessageWithParts } from "../messages.js";
import type { Ledger } from "../routing/ledger.js";
import { isConfident } from "../routing/ledger.js";
import { covers, type TaskRecord } from "./record.js";

/**
 * The history a memory update reads without asking OpenCode for the whole session again:
 * the messages of the last model call (its view) joined with the newest stored messages
 * (`tail`, oldest first), which carry what the call produced and the final versions of
 * steps that were still running. Undefined when the two do not join: more happened since
 * the call than the tail holds, or the tail disagrees with the view.
 */
export function extendView(view: readonly MessageWithParts[], tail: readonly MessageWithParts[], tailLimit: number): MessageWithParts[] | undefined {
  const first = tail[0];
  if (first === undefined) return [...view];
  const at = view.findIndex((message) => message.info.id === first.info.id);
  if (at < 0) return tail.length < tailLimit ? [...tail] : undefined;
  const tailIDs = new Set(tail.map((message) => message.info.id));
  for (let index = at; index < view.length; index += 1) if (!tailIDs.has(view[index]?.info.id ?? "")) return undefined;
  return [...view.slice(0, at), ...tail];
}

/**
 * Whether a request the updater must still fold lies outside `messages`: routed confidently
 * to a task, not shared, not covered by the task's record, and not in view (a compaction
 * hid it before an update saw it). Then only the whole stored history will do.
 */
export function missesUncoveredRequest(options: {
  messages: readonly MessageWithParts[];
  ledger: Ledger;
  records: Readonly<Record<string, TaskRecord>>;
  threshold: number;
}): boolean {
  const { messages, ledger, records, threshold } = options;
  const inView = new Set(messages.map((message) => message.info.id));
  return ledger.order.some((id) => {
    const entry = ledger.decisions[id];
    if (!entry || entry.shared || !isConfident(entry, threshold) || inView.has(id)) return false;
    return !covers(records[entry.task], id);
  });
}
