import { messageOf } from "../../kit/errors/message-of.js";
import type { EarlierTask } from "../core/routing/resume-verdict.js";
import { type MoveIntent, splitTargetProblem } from "../session-views/move-selection.js";
import type { SessionIntent } from "../store/session-inbox.js";
import type { StoredSession } from "./live-session.js";
import type { Resumption, SessionResume } from "./session-resume.js";
import type { MoveDone, SessionRouting } from "./session-routing.js";
import type { SessionSplit, SplitDone } from "./session-split.js";
import type { SessionStore } from "./session-store.js";

/**
 * The one way a person changes a session: a move, a split, off or on, whether typed as
 * `/rcm-text` (and the V2 commands) or left by the TUI or the CLI in the session's inbox
 * (store/session-inbox.ts). Each runs inside a store step, so it never interleaves with a
 * model call's.
 */
export interface VerbDispatcher {
  /** Inside a step: a move or split from the inbox. Undefined once applied, or why there was nothing to do (moved or split since). */
  apply(session: StoredSession, intent: Extract<SessionIntent, { kind: "move" | "split" | "resume" }>): Promise<string | undefined>;
  /** `/rcm-text move`, as the session's next step: what moved; throws what the person must read. */
  move(sessionID: string, move: MoveIntent): Promise<MoveDone>;
  /** `/rcm-text split`, as the session's next step: where the task went on; throws what the person must read. */
  split(sessionID: string, task: string): Promise<SplitDone>;
  /** `/rcm-text resume`, as the session's next step: the earlier task taken up here; throws what the person must read. */
  resume(sessionID: string, key: string): Promise<Resumption>;
  /** The earlier sessions' unfinished tasks the session may resume (`/rcm resume` lists them). */
  earlier(sessionID: string): Promise<readonly EarlierTask[]>;
  /** `/rcm-text off` and `on`, as the session's next step (a sub-agent session is left alone). */
  switchOff(sessionID: string, off: boolean): Promise<void>;
}

export function createVerbDispatcher(deps: {
  store: SessionStore;
  routing: SessionRouting;
  /** Absent where no session can be opened (a split then waits in the inbox). */
  split?: SessionSplit | undefined;
  /** Absent without memory: a resumed task brings its record, which only memory keeps. */
  resume?: SessionResume | undefined;
}): VerbDispatcher {
  const { store, routing } = deps;
  const applyResume = async (session: StoredSession, key: string): Promise<Resumption> => {
    if (!deps.resume) throw new Error("resuming a task needs its record: modes memory and full");
    const resumption = await deps.resume.resume(session, key);
    await store.commit(session, {
      ...session.state,
      ledger: resumption.ledger,
      resumed: { ...session.state.resumed, [resumption.task.id]: resumption.carried },
    });
    // Built again at the next step, from the ledger (the resumed task current) and what it brought.
    session.live.routing = undefined;
    return resumption;
  };
  const applySplit = (session: StoredSession, task: string): Promise<SplitDone> => {
    if (!deps.split) throw new Error("this server part cannot open sessions");
    return deps.split.applySplit(session, task);
  };
  /** A step on a session the person may change: never a sub-agent's. */
  const changing = <T>(sessionID: string, work: (session: StoredSession) => Promise<T>): Promise<T> =>
    store.step(sessionID, async (session) => {
      if (session.subagent) throw new Error("a sub-agent session is left untouched");
      return work(session);
    });
  return {
    async apply(session, intent) {
      const { ledger } = session.state;
      if (intent.kind === "resume") {
        const [from, task] = intent.key.split("/");
        // Applying twice resumes it once.
        if (ledger.tasks.some((known) => known.resumed?.session === from && known.resumed?.task === task)) return `${intent.key} is resumed here already`;
        try {
          await applyResume(session, intent.key);
        } catch (error) {
          return messageOf(error);
        }
        return undefined;
      }
      if (intent.kind === "split") {
        const task = ledger.tasks.find((candidate) => candidate.id === intent.task);
        if (!task) return `no task ${intent.task} in this session`;
        // Applying twice opens one session.
        if (task.split) return `${task.id} is split out already, into ${task.split.session}`;
        await applySplit(session, intent.task);
        return undefined;
      }
      // A request that moved since it was picked is left where it is now; the rest move.
      const still = intent.requests.filter((request) => ledger.decisions[request.messageID]?.task === request.from);
      if (still.length === 0) return "the requests were never routed here, or moved since";
      const { target } = intent;
      if (target.kind === "task" && !ledger.tasks.some((task) => task.id === target.task)) return `no task ${target.task} in this session`;
      // Split out after the move was asked for: refused (the CLI and the TUI refuse it when it was asked after).
      if (target.kind === "task") {
        const refused = splitTargetProblem(ledger, target.task);
        if (refused) return refused;
      }
      await routing.applyMove(session, { ...intent, requests: still });
      return undefined;
    },
    move: (sessionID, move) => changing(sessionID, (session) => routing.applyMove(session, move)),
    split: (sessionID, task) => changing(sessionID, (session) => applySplit(session, task)),
    resume: (sessionID, key) => changing(sessionID, (session) => applyResume(session, key)),
    earlier: (sessionID) => changing(sessionID, async (session) => (deps.resume ? deps.resume.earlier(session) : [])),
    switchOff: (sessionID, off) =>
      store.step(sessionID, async (session) => {
        if (!session.subagent) await store.switchOff(session, off);
      }),
  };
}
