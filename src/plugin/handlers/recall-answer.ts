import { redactDigests } from "../auxiliary/redact-digests.js";
import { hiddenExchanges, taskExchanges } from "../core/context/hidden-exchanges.js";
import { renderRecall } from "../core/context/render-recall.js";
import type { LedgerTask } from "../core/routing/ledger.js";
import type { SessionRouting } from "../sessions/session-routing.js";
import type { SessionSource } from "../sessions/session-source.js";
import type { SessionStore } from "../sessions/session-store.js";
import { sessionStateFile } from "../store/session-state-file.js";

/** The recall tool's name, as the host offers it to the model and as a user message's `tools` map names it. */
export const RECALL_TOOL = "rcm_recall";

/** More exchanges than this never fit the answer's budget anyway. */
export const RECALL_MAX_LIMIT = 20;

/** What every host tells the model of the recall tool and its arguments. */
export const RECALL_TEXT = {
  description:
    "Read what opencode-rcm left out of your context: the recent exchanges of another task of this session, or of a task resumed from an earlier session there (the user's requests, your tool calls in brief, your answers), newest first, secrets redacted. Use it when the current request depends on earlier work you cannot see.",
  task: "The task whose hidden history to read, e.g. t2 (an unknown id gets the list of tasks)",
  limit: "At most this many exchanges, newest first (default: as many as fit about 2,000 tokens)",
} as const;

/**
 * `rcm_recall`'s answer: what routing left out of the model's context, another task's
 * exchanges, redacted as every text bound for an aux model is. Each use is noted on the
 * decision of the request being answered (the panel and `/rcm why` show it), where it also
 * counts as routing evidence. Throws, for the model to read, on a task it cannot recall.
 */
export function createRecallAnswer(deps: {
  store: SessionStore;
  source: SessionSource;
  routing: SessionRouting;
  /** Where the earlier sessions' state is (a resumed task's exchanges are there). */
  stateDir: string;
  redact?: typeof redactDigests;
}) {
  const redact = deps.redact ?? redactDigests;
  return async (call: { sessionID: string; messageID: string; task: string; limit?: number | undefined }): Promise<string> => {
    const { sessionID, messageID, task, limit } = call;
    const state = await deps.store.read(sessionID);
    if (!state) return "opencode-rcm does not track tasks in sub-agent sessions: nothing is hidden here.";
    if (state.off) return "opencode-rcm is off for this session: nothing is hidden, the whole history is in your context.";
    const messages = await deps.source.messages(sessionID);
    const found = hiddenExchanges({ messages, ledger: state.ledger, messageID, task, lastCall: state.lastCall });
    if (found.kind === "unknown") throw new Error(`no task ${task} in this session (tasks: ${taskList(found.tasks)})`);
    if (found.kind === "current") {
      if (found.task.resumed) return earlierExchanges({ ...deps, redact }, found.task, limit);
      throw new Error(`${task} is the task of the request you are answering: its history is already in your context`);
    }
    // The detector is costly: only the exchanges that can show are redacted (those that fit before), then rendered again.
    const fits = renderRecall({ task: found.task, total: found.total, hidden: found.hidden, limit }).exchanges;
    const picked = found.hidden.slice(0, fits);
    const redacted = await redact(picked.map((exchange) => exchange.digest));
    const answer = renderRecall({
      task: found.task,
      total: found.total,
      hidden: redacted.map((digest, index) => ({ number: picked[index]?.number ?? 0, digest })),
      hiddenTotal: found.hidden.length,
      limit,
    });
    const { requestID } = found;
    if (requestID !== undefined)
      await deps.store.step(sessionID, (session) => deps.routing.recalled(session, requestID, { task, exchanges: answer.exchanges }));
    return answer.text;
  };
}

/** A resumed task's exchanges in the earlier session it comes from (never in view here), redacted. */
async function earlierExchanges(
  deps: { source: SessionSource; stateDir: string; redact: typeof redactDigests },
  task: LedgerTask,
  limit: number | undefined,
): Promise<string> {
  const from = task.resumed;
  if (!from) return "";
  const earlier = await sessionStateFile(deps.stateDir, from.session).peek();
  if (earlier.status !== "loaded") throw new Error(`${task.id} comes from session ${from.session}, whose state cannot be read (${earlier.status})`);
  const messages = await deps.source.messages(from.session);
  const all = taskExchanges({ messages, ledger: earlier.value.ledger, task: from.task });
  const fits = renderRecall({ task, total: all.length, hidden: all, limit }).exchanges;
  const picked = all.slice(0, fits);
  const redacted = await deps.redact(picked.map((exchange) => exchange.digest));
  const answer = renderRecall({
    task,
    total: all.length,
    hidden: redacted.map((digest, index) => ({ number: picked[index]?.number ?? 0, digest })),
    hiddenTotal: all.length,
    limit,
  });
  const session = from.sessionTitle ? `"${from.sessionTitle}"` : from.session;
  return `${task.id} was resumed from an earlier session (${session}, as ${from.task} there); its exchanges there:\n${answer.text}`;
}

function taskList(tasks: readonly LedgerTask[]): string {
  return tasks.map((task) => `${task.id} ${JSON.stringify(task.title)}`).join(", ") || "none yet";
}
