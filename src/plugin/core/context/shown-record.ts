import { z } from "zod";
import type { Ledger } from "../routing/ledger.js";

/**
 * The record text a task's model calls were last given, where, and what it stood for. The
 * record changes after every turn, but the model is shown the same bytes at the same place
 * until the cut of replaced exchanges moves (or a compaction, or the window, makes it): a
 * provider's prefix cache then keeps everything up to the newest turn. Nothing is lost
 * meanwhile: the exchanges after the cut are in view verbatim, and so is every user request.
 */
const ShownRecordSchema = z.object({
  task: z.string().min(1),
  /** The groups whose assistant/tool exchanges the text stands for, oldest first: the cut. */
  replaced: z.array(z.string().min(1)),
  /** The latest compaction summary in view when the text was rendered; absent when there was none. */
  compaction: z.string().min(1).optional(),
  /** The requests the record covered when the text was rendered: a move of any of them out of the task retires the text. */
  covers: z.array(z.string().min(1)),
  /** The user message the text goes right before: the request of the call that rendered it (or, with that request out of view, the latest user message). */
  before: z.string().min(1),
  text: z.string().min(1),
});
export type ShownRecord = z.infer<typeof ShownRecordSchema>;

/** Per task id. */
export const ShownRecordsSchema = z.record(z.string(), ShownRecordSchema);

/**
 * The shown text still stands for what a call would replace: same task, the same latest
 * compaction in view, the message it goes before still in view (`inView`), the requests it was
 * rendered from all still the task's (`/rcm move` can take one away), and its cut a prefix of
 * the call's covered exchanges (`replaceable` ids, oldest first). Returns how many of them the
 * text stands for, or undefined.
 */
export function reusableCut(options: {
  shown: ShownRecord | undefined;
  task: string;
  compaction: string | undefined;
  replaceable: readonly string[];
  ledger: Ledger;
  inView: (messageID: string) => boolean;
}): number | undefined {
  const { shown, task, compaction, replaceable, ledger } = options;
  if (shown === undefined || shown.task !== task || shown.compaction !== compaction || !options.inView(shown.before)) return undefined;
  if (shown.replaced.length > replaceable.length) return undefined;
  for (let index = 0; index < shown.replaced.length; index += 1) if (shown.replaced[index] !== replaceable[index]) return undefined;
  for (const id of [...shown.covers, shown.before]) {
    const entry = ledger.decisions[id];
    if (entry !== undefined && entry.task !== task) return undefined;
  }
  return shown.replaced.length;
}
