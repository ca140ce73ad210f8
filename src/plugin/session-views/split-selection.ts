import type { Ledger } from "../core/routing/ledger.js";
import type { SessionIntent } from "../store/session-inbox.js";

export type SplitIntent = Extract<SessionIntent, { kind: "split" }>;

/** The split the words of `/rcm split` (and the CLI's `split`) ask for: one task id. */
export function splitFromWords(ledger: Ledger | undefined, words: readonly string[]): SplitIntent | { problem: string } {
  const tasks = ledger?.tasks ?? [];
  if (tasks.length === 0) return { problem: "no task in this session yet" };
  const known = tasks.map((task) => task.id).join(", ");
  const [word, ...rest] = words;
  if (word === undefined || rest.length > 0) return { problem: `needs one task id, e.g. split ${tasks.at(-1)?.id ?? "t2"} (tasks: ${known})` };
  const task = tasks.find((candidate) => candidate.id === word.toLowerCase());
  if (!task) return { problem: `no task "${word}" in this session (tasks: ${known})` };
  if (task.split) return { problem: `${task.id} is split out already, into ${task.split.session}` };
  return { kind: "split", task: task.id };
}

/** Whether the session has a task that could be split out. */
export function canSplit(ledger: Ledger | undefined): boolean {
  return ledger?.tasks.some((task) => !task.split) ?? false;
}
