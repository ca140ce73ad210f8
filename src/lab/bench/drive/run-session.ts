import { messageOf } from "../../../kit/errors/message-of.js";
import type { Checkout } from "../checkout/prepare-checkouts.js";
import { FINALIZE_REQUEST, requestText } from "../suite/request-text.js";
import { openCodeSessionStarts } from "../suite/resumed-sessions.js";
import { FINALIZE, type SessionSpec } from "../suite/schema.js";
import type { HostServer } from "./host-server.js";

/** One request sent to the agent: a schedule entry, or a continuation after a timeout. */
export interface SentRequest {
  /** Position in the schedule. */
  entry: number;
  task: string;
  stage: string;
  /** The text sent, workspace prefix included. */
  text: string;
  continuation: boolean;
  timedOut: boolean;
  ms: number;
}

export interface SessionRun {
  /** OpenCode's id of the session; of a resumed session, the third one's (the focus's return, finalized and scored). */
  opencodeSessionID: string;
  /** A resumed session's three OpenCode sessions in order (absent for a session run in one). */
  opencodeSessionIDs?: string[];
  requests: SentRequest[];
  /** The finalization request was sent and its turn ended. */
  finalized: boolean;
  /** A request timed out with no continuation left: the session stopped early. */
  budgetExhausted: boolean;
  continuations: number;
  error?: string;
  wallMs: number;
}

const CONTINUE_REQUEST = "Continue where you stopped.";

/**
 * Sends a session's schedule to the agent through one continuous OpenCode session (either host): each
 * request waits for its turn to end. A request past its budget is aborted and followed by a
 * continuation request, at most `maxContinuations` times per session; then the session stops.
 * A resumed session is sent in three OpenCode sessions of the same server, one after the other
 * (`openCodeSessionStarts`): nothing more is sent to a session once the next one begins.
 */
export async function runSession(options: {
  host: HostServer;
  spec: SessionSpec;
  checkouts: ReadonlyMap<string, Checkout>;
  budgetMs: number;
  maxContinuations: number;
  signal?: AbortSignal;
  onRequest?: (done: number, total: number, label: string) => void;
}): Promise<SessionRun> {
  const { host, spec, checkouts, budgetMs, maxContinuations } = options;
  const started = performance.now();
  const starts = openCodeSessionStarts(spec);
  // A session of one part keeps its title (the session's id) as before; parts are numbered.
  const title = (part: number) => (starts.length === 1 ? spec.session_id : `${spec.session_id} ${part + 1}/${starts.length}`);
  let sessionID = await host.createSession(title(0));
  const run: SessionRun = { opencodeSessionID: sessionID, requests: [], finalized: false, budgetExhausted: false, continuations: 0, wallMs: 0 };
  if (starts.length > 1) run.opencodeSessionIDs = [sessionID];
  const send = async (text: string) => {
    const begun = performance.now();
    const turn = host.send(sessionID, text);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      turn.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), budgetMs))),
    ]).finally(() => clearTimeout(timer));
    if (timedOut) {
      await host.abort(sessionID).catch(() => undefined);
      await turn.catch(() => undefined);
    }
    return { timedOut, ms: Math.round(performance.now() - begun) };
  };
  try {
    for (const [entry, { task, stage }] of spec.schedule.entries()) {
      if (options.signal?.aborted) throw new Error("interrupted");
      const part = starts.indexOf(entry);
      if (part > 0) {
        sessionID = await host.createSession(title(part));
        run.opencodeSessionID = sessionID;
        run.opencodeSessionIDs?.push(sessionID);
      }
      const checkout = checkouts.get(task);
      if (!checkout) throw new Error(`no checkout for task ${task}`);
      const request = stage === FINALIZE ? FINALIZE_REQUEST : checkout.task.stages.find((candidate) => candidate.id === stage)?.request;
      if (request === undefined) throw new Error(`task ${task} has no stage ${stage}`);
      options.onRequest?.(entry, spec.schedule.length, `${task}/${stage}`);
      const text = requestText(checkout.workspace, request);
      let outcome = await send(text);
      run.requests.push({ entry, task, stage, text, continuation: false, ...outcome });
      while (outcome.timedOut) {
        if (run.continuations >= maxContinuations) {
          run.budgetExhausted = true;
          return run;
        }
        run.continuations += 1;
        const again = requestText(checkout.workspace, CONTINUE_REQUEST);
        outcome = await send(again);
        run.requests.push({ entry, task, stage, text: again, continuation: true, ...outcome });
      }
      if (stage === FINALIZE) run.finalized = true;
    }
    return run;
  } catch (error) {
    run.error = messageOf(error);
    return run;
  } finally {
    run.wallMs = Math.round(performance.now() - started);
  }
}
