import { LRUCache } from "lru-cache";
import { messageOf } from "../../kit/errors/message-of.js";
import type { CallReport } from "../core/context/call-report.js";
import { pendingIntents, removeInbox, removeIntents, type SessionIntent, sessionsWithInbox } from "../store/session-inbox.js";
import type { RecordCalls, SessionState } from "../store/session-state-file.js";
import { sessionStateFile } from "../store/session-state-file.js";
import type { VersionedJsonFile } from "../store/versioned-json-file.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";

/** Sessions whose state stays in memory; more are read back from disk when used. */
export const DEFAULT_MAX_SESSIONS = 64;

/** One session as a step sees it. The same object for as long as the session stays in memory. */
export interface StoredSession {
  readonly sessionID: string;
  /** A sub-agent session: nothing is routed or remembered for it, and its state is never written. */
  readonly subagent: boolean;
  /** As last committed, or as changed earlier in this step. */
  readonly state: SessionState;
}

/** Applies a move the TUI or the CLI asked for: undefined once applied, or why there was nothing to do. */
type MoveIntentHandler = (session: StoredSession, intent: Extract<SessionIntent, { kind: "move" }>) => Promise<string | undefined>;

/** Applies a split the TUI or the CLI asked for (session-split.ts): undefined once applied, or why there was nothing to do. */
type SplitIntentHandler = (session: StoredSession, intent: Extract<SessionIntent, { kind: "split" }>) => Promise<string | undefined>;

/**
 * The persisted state of the sessions this server runs (ledger, records, switch, savings,
 * last call), which routing and memory share as peers. Work on one session runs one step at
 * a time (a queue per session), so a read and its write never interleave with another
 * step's; sessions never share state.
 */
export interface SessionStore {
  /**
   * Runs `work` as the session's next step. Unless `intents` is false, what the TUI or the CLI
   * asked for (see session-inbox.ts) is applied first: the steps that start a turn or a model
   * call, and the readers, do; the write-behind steps need not.
   */
  step<T>(sessionID: string, work: (session: StoredSession) => Promise<T> | T, options?: { intents?: boolean }): Promise<T>;
  /** Inside a step: the session's next state, written now (one atomic write). */
  commit(session: StoredSession, state: SessionState): Promise<void>;
  /** Inside a step: the session's next state, written by `flush` or when the session leaves memory (what every model call changes). */
  stage(session: StoredSession, state: SessionState): void;
  /** The session's state, after the steps before; undefined for a sub-agent session. */
  read(sessionID: string): Promise<SessionState | undefined>;
  /**
   * The session's state as last changed, without waiting behind its queue (a background
   * memory update must not hold up a model call, nor wait for one); undefined for a
   * sub-agent session. Changes still go through a step.
   */
  current(sessionID: string): Promise<SessionState | undefined>;
  /** Writes what `stage` changed; once per turn, not per model call. */
  flush(sessionID: string): Promise<void>;
  /** `/rcm off` and `/rcm on`: undefined once switched, or why there was nothing to do. Inside a step. */
  switchOff(session: StoredSession, off: boolean): Promise<string | undefined>;
  /** Who applies a move from the TUI or the CLI (routing; until set, moves wait). */
  handleMoves(handler: MoveIntentHandler): void;
  /** Who applies a split from the TUI or the CLI (it opens an OpenCode session; until set, splits wait). */
  handleSplits(handler: SplitIntentHandler): void;
  /** Applies what the TUI or the CLI asked for now, in every session this server holds that has some waiting. */
  pickUp(): Promise<void>;
  /** Drops what is held in memory for a deleted session (the aux calls' child sessions among them). */
  forget(sessionID: string): void;
}

interface OpenSession extends StoredSession {
  state: SessionState;
  readonly file: VersionedJsonFile<SessionState>;
  /** Changed since the last write. */
  dirty: boolean;
}

export function createSessionStore(deps: {
  stateDir: string;
  source: SessionSource;
  logger: Logger;
  /** Sessions held in memory at once (least recently used leave first). */
  maxSessions?: number;
}): SessionStore {
  // A long-running server keeps only the sessions in use: an idle one leaves memory (its
  // state is on disk) and is read back when it comes back.
  const sessions = new LRUCache<string, Promise<OpenSession>>({
    max: deps.maxSessions ?? DEFAULT_MAX_SESSIONS,
    // What only `stage` changed (the savings, the last call) is written before the session leaves.
    dispose: (session) => void session.then((open) => (open.dirty ? open.file.save(open.state) : undefined)).catch(() => undefined),
  });
  const queues = new Map<string, Promise<unknown>>();
  let moves: MoveIntentHandler | undefined;
  let splits: SplitIntentHandler | undefined;

  const serialised = <T>(sessionID: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(sessionID) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(sessionID, settled);
    // The queue entry goes once nothing more is waiting on it.
    void settled.then(() => {
      if (queues.get(sessionID) === settled) queues.delete(sessionID);
    });
    return next;
  };

  const load = async (sessionID: string): Promise<OpenSession> => {
    const subagent = (await deps.source.parentID(sessionID)) !== undefined;
    const file = sessionStateFile(deps.stateDir, sessionID);
    const loaded = await file.load();
    if (loaded.status === "rebuilt") {
      await deps.logger.log("warn", `session state was unreadable (${loaded.reason}); moved it aside and started a new ledger`, {
        sessionID,
        movedTo: loaded.movedTo,
      });
    }
    return { sessionID, subagent, file, state: loaded.value, dirty: false };
  };

  const open = async (sessionID: string): Promise<OpenSession> => {
    let session = sessions.get(sessionID);
    if (!session) {
      session = load(sessionID);
      sessions.set(sessionID, session);
      session.catch(() => sessions.delete(sessionID));
    }
    return session;
  };

  const commit = async (session: StoredSession, state: SessionState): Promise<void> => {
    const opened = session as OpenSession;
    await opened.file.save(state);
    opened.state = state;
    opened.dirty = false;
  };

  const switchOff = async (session: StoredSession, off: boolean): Promise<string | undefined> => {
    if (session.state.off === off) return `already ${off ? "off" : "on"}`;
    await commit(session, { ...session.state, off });
    await deps.logger.log("info", `switched ${off ? "off (native history)" : "on"} for this session by the user`, { sessionID: session.sessionID });
    return undefined;
  };

  /**
   * Applies the session's waiting intents in order, each file removed once it is applied (or
   * dropped as moot), so a crash in between repeats at most one, and a repeat changes nothing.
   * One that fails for a passing reason (the history could not be read) stays, with the rest
   * behind it, for the next step.
   */
  const applyIntents = async (session: OpenSession): Promise<void> => {
    const { sessionID } = session;
    const onBad = (file: string, reason: string) =>
      void deps.logger.log("warn", `ignored an unreadable request from the TUI or CLI (${reason}); left as ${file}.bad`, { sessionID });
    for (const pending of await pendingIntents(deps.stateDir, sessionID, onBad)) {
      const { intent } = pending;
      if (intent.kind === "move" && !moves) return;
      if (intent.kind === "split" && !splits) return;
      try {
        const moot = session.subagent
          ? "a sub-agent session is left untouched"
          : intent.kind === "move"
            ? await moves?.(session, intent)
            : intent.kind === "split"
              ? await splits?.(session, intent)
              : await switchOff(session, intent.kind === "off");
        if (moot) await deps.logger.log("info", `dropped ${intent.kind} from the TUI or CLI: ${moot}`, { sessionID });
      } catch (error) {
        await deps.logger.log("warn", `could not apply ${intent.kind} from the TUI or CLI yet (kept for the next step): ${messageOf(error)}`, { sessionID });
        return;
      }
      await removeIntents([pending]);
    }
  };

  const step: SessionStore["step"] = (sessionID, work, options = {}) =>
    serialised(sessionID, async () => {
      const session = await open(sessionID);
      if (options.intents !== false) await applyIntents(session);
      return work(session);
    });

  const read: SessionStore["read"] = (sessionID) => step(sessionID, (session) => (session.subagent ? undefined : session.state));

  return {
    step,
    commit,
    stage(session, state) {
      const opened = session as OpenSession;
      opened.state = state;
      opened.dirty = true;
    },
    read,
    async current(sessionID) {
      const loaded = sessions.get(sessionID);
      if (!loaded) return read(sessionID);
      const session = await loaded;
      return session.subagent ? undefined : session.state;
    },
    flush: (sessionID) =>
      step(
        sessionID,
        async (session) => {
          const opened = session as OpenSession;
          if (opened.dirty) await commit(opened, opened.state);
        },
        { intents: false },
      ),
    switchOff,
    handleMoves(handler) {
      moves = handler;
    },
    handleSplits(handler) {
      splits = handler;
    },
    async pickUp() {
      // Only sessions this server holds: another session gets its intents at its next step,
      // and a session another OpenCode process runs is that process's to change.
      for (const sessionID of await sessionsWithInbox(deps.stateDir)) {
        if (!sessions.has(sessionID)) continue;
        await step(sessionID, () => undefined).catch((error: unknown) =>
          deps.logger.log("warn", `could not apply changes from the TUI or CLI: ${messageOf(error)}`, { sessionID }),
        );
      }
    },
    forget(sessionID) {
      sessions.delete(sessionID);
      queues.delete(sessionID);
      void removeInbox(deps.stateDir, sessionID).catch(() => undefined);
    },
  };
}

/**
 * The session's state with what a model call received kept (for `/rcm why` and the TUI's
 * panel), what it did with its task's record kept per task (for `/rcm show`), and what it
 * saved added to the total.
 */
export function withCallNoted(state: SessionState, report: CallReport): SessionState {
  const { saved } = state;
  return {
    ...state,
    lastCall: report,
    ...(report.record ? { recordCalls: withRecordCall(state.recordCalls, report, report.record) } : {}),
    saved: {
      calls: saved.calls + 1,
      routingTokens: saved.routingTokens + report.tokens.routingSaved,
      memoryTokens: saved.memoryTokens + report.tokens.memorySaved,
    },
  };
}

function withRecordCall(calls: SessionState["recordCalls"], report: CallReport, use: NonNullable<CallReport["record"]>): Record<string, RecordCalls> {
  const call = { ...use, ...(report.at === undefined ? {} : { at: report.at }), ...(report.requestID === undefined ? {} : { requestID: report.requestID }) };
  const carried = use.shown ? call : calls?.[use.task]?.carried;
  return { ...calls, [use.task]: { last: call, ...(carried ? { carried } : {}) } };
}
