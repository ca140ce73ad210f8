import { LRUCache } from "lru-cache";
import { messageOf } from "../../kit/errors/message-of.js";
import type { CallReport } from "../core/context/call-report.js";
import { pendingIntents, removeInbox, removeIntents, type SessionIntent, sessionsWithInbox } from "../store/session-inbox.js";
import type { RecordCalls, SessionState } from "../store/session-state-file.js";
import { sessionStateFile } from "../store/session-state-file.js";
import type { VersionedJsonFile } from "../store/versioned-json-file.js";
import { type LiveSession, newLiveSession, type StoredSession } from "./live-session.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";

/** Sessions held in memory; more are read back from disk when used. */
const DEFAULT_MAX_SESSIONS = 64;

/**
 * The cache of live sessions (live-session.ts): one object per session, whatever part of the
 * plug-in met it first. A long-running server keeps only the sessions in use: the least
 * recently used leaves memory whole (its persisted state written first, if a step changed it)
 * and is read back from disk when it comes back.
 */
export interface LiveSessions {
  /** The session's live object, made on first use. */
  get(sessionID: string): LiveSession;
  /** The session's live object if it is in memory; never makes one. */
  peek(sessionID: string): LiveSession | undefined;
  /** Drops everything held in memory for the session (deleted): one call. */
  forget(sessionID: string): void;
}

export function createLiveSessions(options: { max?: number } = {}): LiveSessions {
  const sessions = new LRUCache<string, LiveSession>({
    max: options.max ?? DEFAULT_MAX_SESSIONS,
    // What only `stage` changed (the savings, the last call) is written before the session leaves.
    dispose: (live) => void writeBehind(live),
  });
  return {
    get(sessionID) {
      let live = sessions.get(sessionID);
      if (!live) {
        live = newLiveSession(sessionID);
        sessions.set(sessionID, live);
      }
      return live;
    },
    peek: (sessionID) => sessions.peek(sessionID),
    forget(sessionID) {
      sessions.delete(sessionID);
    },
  };
}

/** Applies a move or a split from the TUI or the CLI inside a step (verb-dispatcher.ts): undefined once applied, or why there was nothing to do. */
export type IntentApplier = (session: StoredSession, intent: Extract<SessionIntent, { kind: "move" | "split" | "resume" }>) => Promise<string | undefined>;

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
  /** Applies what the TUI or the CLI asked for now, in every session this server holds that has some waiting. */
  pickUp(): Promise<void>;
  /** Drops what is held in memory for a deleted session (the aux calls' child sessions among them), and its inbox. */
  forget(sessionID: string): void;
}

/** The store's own handle on a session: the one place its state is changed. */
class OpenSession implements StoredSession {
  /** Changed since the last write. */
  dirty = false;
  constructor(
    readonly live: LiveSession,
    readonly subagent: boolean,
    readonly file: VersionedJsonFile<SessionState>,
    public state: SessionState,
  ) {}
  get sessionID(): string {
    return this.live.sessionID;
  }
}

/** The store's handle behind a step's read-only view of it. */
function opened(session: StoredSession): OpenSession {
  if (!(session instanceof OpenSession)) throw new Error(`session ${session.sessionID} was not opened by the session store`);
  return session;
}

/** Writes what a step staged and no flush wrote yet (a session leaving memory). */
async function writeBehind(live: LiveSession): Promise<void> {
  try {
    const session = opened(await (live.stored ?? Promise.reject(new Error("never stored"))));
    if (session.dirty) await session.file.save(session.state);
  } catch {
    // A session that never loaded has nothing to write; a failed write leaves the last one on disk.
  }
}

/** What the store needs: where the state files are, the host's sessions, the live objects' cache. */
interface StoreDeps {
  stateDir: string;
  source: SessionSource;
  logger: Logger;
  /** The cache the sessions' live objects are in (the store's persisted part is one of their fields). */
  sessions: LiveSessions;
  /** Applies a move or a split from the TUI or the CLI (verb-dispatcher.ts); without it they wait. */
  applyIntent?: IntentApplier | undefined;
}

export function createSessionStore(deps: StoreDeps): SessionStore {
  const step: SessionStore["step"] = (sessionID, work, options = {}) => {
    const live = deps.sessions.get(sessionID);
    return serialised(live, async () => {
      const session = await open(deps, live);
      if (options.intents !== false) await applyIntents(deps, session);
      return work(session);
    });
  };
  const read: SessionStore["read"] = (sessionID) => step(sessionID, (session) => (session.subagent ? undefined : session.state));
  return {
    step,
    commit,
    stage(session, state) {
      const open = opened(session);
      open.state = state;
      open.dirty = true;
    },
    read,
    async current(sessionID) {
      const stored = deps.sessions.peek(sessionID)?.stored;
      if (!stored) return read(sessionID);
      const session = await stored;
      return session.subagent ? undefined : session.state;
    },
    flush: (sessionID) =>
      step(
        sessionID,
        async (session) => {
          if (opened(session).dirty) await commit(session, session.state);
        },
        { intents: false },
      ),
    switchOff: (session, off) => switchOff(deps, session, off),
    async pickUp() {
      // Only sessions this server holds: another session gets its intents at its next step,
      // and a session another OpenCode process runs is that process's to change.
      for (const sessionID of await sessionsWithInbox(deps.stateDir)) {
        if (!deps.sessions.peek(sessionID)?.stored) continue;
        await step(sessionID, () => undefined).catch((error: unknown) =>
          deps.logger.log("warn", `could not apply changes from the TUI or CLI: ${messageOf(error)}`, { sessionID }),
        );
      }
    },
    forget(sessionID) {
      deps.sessions.forget(sessionID);
      void removeInbox(deps.stateDir, sessionID).catch(() => undefined);
    },
  };
}

/** Runs `work` after the session's steps before it (whether they failed or not). */
function serialised<T>(live: LiveSession, work: () => Promise<T>): Promise<T> {
  const next = (live.queue ?? Promise.resolve()).then(work, work);
  const settled = next.catch(() => undefined);
  live.queue = settled;
  // The queue's tail goes once nothing more is waiting on it.
  void settled.then(() => {
    if (live.queue === settled) live.queue = undefined;
  });
  return next;
}

/** The session's persisted part, read from its file at its first step (read again at the next step when that failed). */
function open(deps: StoreDeps, live: LiveSession): Promise<StoredSession> {
  if (!live.stored) {
    const stored = load(deps, live);
    live.stored = stored;
    stored.catch(() => {
      if (live.stored === stored) live.stored = undefined;
    });
  }
  return live.stored;
}

async function load(deps: StoreDeps, live: LiveSession): Promise<StoredSession> {
  const { sessionID } = live;
  const subagent = (await deps.source.parentID(sessionID)) !== undefined;
  const file = sessionStateFile(deps.stateDir, sessionID);
  const loaded = await file.load();
  if (loaded.status === "rebuilt") {
    await deps.logger.log("warn", `session state was unreadable (${loaded.reason}); moved it aside and started a new ledger`, {
      sessionID,
      movedTo: loaded.movedTo,
    });
  }
  return new OpenSession(live, subagent, file, loaded.value);
}

async function commit(session: StoredSession, state: SessionState): Promise<void> {
  const open = opened(session);
  await open.file.save(state);
  open.state = state;
  open.dirty = false;
}

async function switchOff(deps: StoreDeps, session: StoredSession, off: boolean): Promise<string | undefined> {
  if (session.state.off === off) return `already ${off ? "off" : "on"}`;
  await commit(session, { ...session.state, off });
  await deps.logger.log("info", `switched ${off ? "off (native history)" : "on"} for this session by the user`, { sessionID: session.sessionID });
  return undefined;
}

/**
 * Applies the session's waiting intents in order, each file removed once it is applied (or
 * dropped as moot), so a crash in between repeats at most one, and a repeat changes nothing.
 * One that fails for a passing reason (the history could not be read) stays, with the rest
 * behind it, for the next step.
 */
async function applyIntents(deps: StoreDeps, session: StoredSession): Promise<void> {
  const { sessionID } = session;
  const onBad = (file: string, reason: string) =>
    void deps.logger.log("warn", `ignored an unreadable request from the TUI or CLI (${reason}); left as ${file}.bad`, { sessionID });
  for (const pending of await pendingIntents(deps.stateDir, sessionID, onBad)) {
    const { intent } = pending;
    const apply = deps.applyIntent;
    // Moves, splits and resumptions wait for their applier; off and on are the store's own.
    const applied = intent.kind === "move" || intent.kind === "split" || intent.kind === "resume";
    if (applied && !apply) return;
    try {
      const moot = session.subagent
        ? "a sub-agent session is left untouched"
        : applied
          ? await apply?.(session, intent)
          : await switchOff(deps, session, intent.kind === "off");
      if (moot) await deps.logger.log("info", `dropped ${intent.kind} from the TUI or CLI: ${moot}`, { sessionID });
    } catch (error) {
      await deps.logger.log("warn", `could not apply ${intent.kind} from the TUI or CLI yet (kept for the next step): ${messageOf(error)}`, { sessionID });
      return;
    }
    await removeIntents([pending]);
  }
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
