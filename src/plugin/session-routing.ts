import { LRUCache } from "lru-cache";
import type { CallReport } from "../core/context/call-report.js";
import type { InteractionGroup } from "../core/interaction-groups.js";
import { toInteractionGroups } from "../core/interaction-groups.js";
import type { TaskRecord } from "../core/memory/record.js";
import { DEFAULT_CONFIDENCE_THRESHOLD } from "../core/routing/decision.js";
import { mayRelabel, relabelsOf } from "../core/routing/edit-evidence.js";
import { type FoldedEvidence, newEvidence } from "../core/routing/group-evidence.js";
import { groupTasks } from "../core/routing/group-tasks.js";
import { type Ledger, type LedgerEntry, type LedgerTask, moveRequest, relabelRequest } from "../core/routing/ledger.js";
import { routeRequest } from "../core/routing/route-request.js";
import type { Router } from "../core/routing/router.js";
import { TaskIndex } from "../core/routing/task-index.js";
import { taskTitle } from "../core/routing/task-title.js";
import { pendingIntents, removeInbox, removeIntents, type SessionIntent, sessionsWithInbox } from "../store/session-inbox.js";
import type { MemoryUpdateLog, SessionState } from "../store/session-state-file.js";
import { sessionStateFile } from "../store/session-state-file.js";
import type { VersionedJsonFile } from "../store/versioned-json-file.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";

/** Sessions whose routing state stays in memory; more are read back from disk when used. */
export const DEFAULT_MAX_SESSIONS = 64;

/** The routing state of the sessions this server runs, one entry per session. */
export interface SessionRouting {
  /**
   * Routes a user request (chat.message) and persists the decision before the turn starts;
   * `previous` is the task current before it. Undefined for a sub-agent session or one
   * the user switched off.
   */
  route(sessionID: string, messageID: string, text: string): Promise<{ entry: LedgerEntry; task: LedgerTask; previous: string | undefined } | undefined>;
  /** What the transform needs: the ledger and the user's switch; undefined for a sub-agent session (passed through untouched). */
  forCall(sessionID: string): Promise<{ ledger: Ledger; off: boolean } | undefined>;
  /** Keeps what a model call received (for `/rcm why` and the TUI's panel) and adds what it saved to the session's total. */
  noteCall(sessionID: string, report: CallReport): Promise<void>;
  /** Writes what only `noteCall` changed (the savings); once per turn, not per model call. */
  flush(sessionID: string): Promise<void>;
  /**
   * `/rcm move`: the last routed request now belongs to `target`; stored as a decision with
   * reason "user" and folded back into the index, so later requests route with it.
   */
  move(sessionID: string, target: { kind: "task"; task: string } | { kind: "new" }): Promise<{ messageID: string; from: string; entry: LedgerEntry; task: LedgerTask }>;
  /** `/rcm off` and `/rcm on`, persisted with the session. */
  setOff(sessionID: string, off: boolean): Promise<void>;
  /** Applies what the TUI or the CLI asked for (see session-inbox.ts) now, in every session that has some waiting. */
  pickUp(): Promise<void>;
  /**
   * Folds what the groups of a model call show (request texts, finished tool calls) into the
   * router's index, each piece once, so routing the next request needs no second read of
   * the history.
   */
  learn(sessionID: string, groups: readonly InteractionGroup[]): Promise<void>;
  /** The session's persisted state (ledger and records) as it is now; undefined for a sub-agent session. */
  snapshot(sessionID: string): Promise<SessionState | undefined>;
  /**
   * The session's state as last committed, without waiting behind the session's queue (a
   * background memory update must not hold up a model call, nor wait for one); undefined
   * for a sub-agent session. Changes still go through the queue.
   */
  current(sessionID: string): Promise<SessionState | undefined>;
  /** Stores a task's next record with the ledger, in one atomic write, and logs the update. */
  commitRecord(sessionID: string, record: TaskRecord | undefined, update: MemoryUpdateLog): Promise<void>;
  /** Drops what is held in memory for a deleted session (the aux calls' child sessions among them). */
  forget(sessionID: string): void;
}

interface RoutedSession {
  file: VersionedJsonFile<SessionState>;
  state: SessionState;
  index: TaskIndex;
  /** Evidence already in the index. */
  folded: FoldedEvidence;
  /** Groups of finished turns whose evidence is all in the index. */
  finished: Set<string>;
  subagent: boolean;
  /** The savings changed since the last write. */
  dirty: boolean;
}

/**
 * Keeps each session's ledger and task index. Sessions never share state; work on one
 * session is serialised (a queue per session), so concurrent hooks cannot interleave
 * a read and a write. After a restart, the ledger is read back from disk and the index
 * rebuilt from the stored history, so routing resumes where it left off.
 */
export function createSessionRouting(deps: {
  stateDir: string;
  router: Router;
  source: SessionSource;
  logger: Logger;
  /** Sessions held in memory at once (least recently used leave first). */
  maxSessions?: number;
  /** The plug-in's confidence threshold: only a request routed below it is relabelled by its edits. */
  threshold?: number;
}): SessionRouting {
  const threshold = deps.threshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  // A long-running server keeps only the sessions in use: an idle one leaves memory (its
  // state is on disk) and is read back, its index rebuilt, when it comes back.
  const sessions = new LRUCache<string, Promise<RoutedSession>>({
    max: deps.maxSessions ?? DEFAULT_MAX_SESSIONS,
    // What only noteCall changed (the savings) is written before the session leaves.
    dispose: (session) => void session.then((open) => (open.dirty ? open.file.save(open.state) : undefined)).catch(() => undefined),
  });
  const queues = new Map<string, Promise<unknown>>();

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

  /**
   * The session; with `intents`, what the TUI or the CLI asked for is applied first (the
   * steps that start a turn or a model call, and the readers). Call inside `serialised`.
   */
  const open = async (sessionID: string, options: { intents?: boolean } = {}): Promise<RoutedSession> => {
    let session = sessions.get(sessionID);
    if (!session) {
      session = load(sessionID);
      sessions.set(sessionID, session);
      session.catch(() => sessions.delete(sessionID));
    }
    const opened = await session;
    if (options.intents) await applyIntents(sessionID, opened);
    return opened;
  };

  /**
   * Applies the session's waiting intents in order, each file removed once it is applied (or
   * dropped as moot), so a crash in between repeats at most one, and a repeat changes nothing.
   * One that fails for a passing reason (the history could not be read) stays, with the rest
   * behind it, for the next step.
   */
  const applyIntents = async (sessionID: string, session: RoutedSession): Promise<void> => {
    const onBad = (file: string, reason: string) => void deps.logger.log("warn", `ignored an unreadable request from the TUI or CLI (${reason}); left as ${file}.bad`, { sessionID });
    for (const pending of await pendingIntents(deps.stateDir, sessionID, onBad)) {
      const { intent } = pending;
      try {
        const moot = session.subagent ? "a sub-agent session is left untouched" : intent.kind === "move" ? await applyMove(session, sessionID, intent) : await switchOff(session, sessionID, intent.kind === "off");
        if (moot) await deps.logger.log("info", `dropped ${intent.kind} from the TUI or CLI: ${moot}`, { sessionID });
      } catch (error) {
        await deps.logger.log("warn", `could not apply ${intent.kind} from the TUI or CLI yet (kept for the next step): ${error instanceof Error ? error.message : String(error)}`, { sessionID });
        return;
      }
      await removeIntents([pending]);
    }
  };

  /** A move asked for from outside: undefined once applied, or why there was nothing to do. */
  const applyMove = async (session: RoutedSession, sessionID: string, intent: Extract<SessionIntent, { kind: "move" }>): Promise<string | undefined> => {
    const { ledger } = session.state;
    const now = ledger.decisions[intent.messageID]?.task;
    if (now === undefined) return "that request was never routed in this session";
    if (now !== intent.from) return `the request is in ${now} now, not ${intent.from}: it moved since`;
    const { target } = intent;
    if (target.kind === "task" && !ledger.tasks.some((task) => task.id === target.task)) return `no task ${target.task} in this session`;
    await moveMessage(session, sessionID, intent.messageID, target);
    return undefined;
  };

  const moveMessage = async (
    session: RoutedSession,
    sessionID: string,
    messageID: string,
    target: { kind: "task"; task: string } | { kind: "new" },
  ): Promise<{ messageID: string; from: string; entry: LedgerEntry; task: LedgerTask }> => {
    const { ledger } = session.state;
    const from = ledger.decisions[messageID]?.task;
    if (from === undefined) throw new Error("that request was never routed in this session");
    if (target.kind === "task" && !ledger.tasks.some((task) => task.id === target.task)) {
      throw new Error(`no task ${target.task} in this session (tasks: ${ledger.tasks.map((task) => task.id).join(", ")})`);
    }
    const groups = toInteractionGroups(await deps.source.messages(sessionID));
    const title = taskTitle(groups.find((group) => group.id === messageID)?.requestText ?? "");
    const moved = moveRequest(ledger, messageID, target.kind === "new" ? { kind: "new", title } : target);
    await save(session, { ...session.state, ledger: moved.ledger });
    // The index forgets what it folded under the old task and folds the history again.
    Object.assign(session, emptyIndex(moved.ledger));
    fold(session, groups);
    await deps.logger.log("info", `moved a request from ${from} to ${moved.task.id}${moved.entry.opened ? " (new)" : ""} "${moved.task.title}" on the user's word`, { sessionID, messageID });
    return { messageID, from, entry: moved.entry, task: moved.task };
  };

  /** `/rcm off` and `on`: undefined once switched, or why there was nothing to do. */
  const switchOff = async (session: RoutedSession, sessionID: string, off: boolean): Promise<string | undefined> => {
    if (session.state.off === off) return `already ${off ? "off" : "on"}`;
    await save(session, { ...session.state, off });
    await deps.logger.log("info", `switched ${off ? "off (native history)" : "on"} for this session by the user`, { sessionID });
    return undefined;
  };

  const load = async (sessionID: string): Promise<RoutedSession> => {
    const subagent = (await deps.source.parentID(sessionID)) !== undefined;
    const file = sessionStateFile(deps.stateDir, sessionID);
    const loaded = await file.load();
    if (loaded.status === "rebuilt") {
      await deps.logger.log("warn", `session state was unreadable (${loaded.reason}); moved it aside and started a new ledger`, {
        sessionID,
        movedTo: loaded.movedTo,
      });
    }
    const session: RoutedSession = { file, state: loaded.value, ...emptyIndex(loaded.value.ledger), subagent, dirty: false };
    // Once per session and process: the whole stored history, older than any compaction.
    if (!subagent) fold(session, toInteractionGroups(await deps.source.messages(sessionID)));
    return session;
  };

  const save = async (session: RoutedSession, state: SessionState): Promise<void> => {
    await session.file.save(state);
    session.state = state;
    session.dirty = false;
  };

  /** Folds the evidence of routed groups that is not in the index yet. */
  // Groups before the latest request belong to finished turns: once folded, they are skipped.
  const fold = (session: RoutedSession, groups: readonly InteractionGroup[]): void => {
    const latest = groups.findLastIndex((group) => group.kind === "request");
    relabel(session, groups, latest);
    const tasks = groupTasks(groups, session.state.ledger);
    groups.forEach((group, position) => {
      if (session.finished.has(group.id)) return;
      const task = tasks[position];
      if (task?.kind === "task" && session.index.task(task.task)) {
        for (const evidence of newEvidence(group, session.folded)) session.index.addEvidence(task.task, evidence);
      }
      if (position < latest) session.finished.add(group.id);
    });
  };

  /**
   * The session teaching itself: a finished turn routed unsurely whose edits all landed in
   * another task's files now belongs to that task. The index is rebuilt from the groups,
   * and the new ledger is written with the next save.
   */
  const relabel = (session: RoutedSession, groups: readonly InteractionGroup[], latest: number): void => {
    // Only a turn that just ended can be relabelled, and most cannot: the walk over the whole history is skipped then.
    const { ledger: current } = session.state;
    const ended = groups.filter((group, position) => position < latest && !session.finished.has(group.id));
    if (!ended.some((group) => mayRelabel({ group, ledger: current, threshold }))) return;
    const relabels = relabelsOf({ groups, ledger: session.state.ledger, threshold, finishedBefore: latest });
    if (relabels.length === 0) return;
    let ledger = session.state.ledger;
    for (const { messageID, task, files } of relabels) {
      const from = ledger.decisions[messageID]?.task;
      ledger = relabelRequest(ledger, messageID, { task, files });
      void deps.logger.log("info", `relabelled a request from ${from ?? "?"} to ${task}: its edits (${files.join(", ")}) are all in ${task}'s files`, {
        sessionID: groups[0]?.sessionID,
        messageID,
      });
    }
    session.state = { ...session.state, ledger };
    session.dirty = true;
    Object.assign(session, emptyIndex(ledger));
  };

  return {
    route: (sessionID, messageID, text) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID, { intents: true });
        if (session.subagent || session.state.off) return undefined;
        // The task of the request routed before this one (for a replayed request, before it).
        const { order, decisions } = session.state.ledger;
        const position = order.indexOf(messageID);
        const previous = decisions[order[(position === -1 ? order.length : position) - 1] ?? ""]?.task;
        const routed = await routeRequest({
          router: deps.router,
          ledger: session.state.ledger,
          index: session.index,
          messageID,
          text,
          sessionID,
        });
        if (routed.ledger !== session.state.ledger) {
          await save(session, { ...session.state, ledger: routed.ledger });
          const { entry, task } = routed;
          await deps.logger.log("info", `routed to ${task.id}${entry.opened ? " (new)" : ""} "${task.title}" confidence ${entry.confidence}: ${entry.reason}`, {
            sessionID,
            messageID,
            ...(entry.aux ? { aux: entry.aux } : {}),
          });
        }
        return { entry: routed.entry, task: routed.task, previous };
      }),
    forCall: (sessionID) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID, { intents: true });
        return session.subagent ? undefined : { ledger: session.state.ledger, off: session.state.off };
      }),
    noteCall: (sessionID, report) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (session.subagent) return;
        const { saved } = session.state;
        session.state = {
          ...session.state,
          lastCall: report,
          saved: {
            calls: saved.calls + 1,
            routingTokens: saved.routingTokens + report.tokens.routingSaved,
            memoryTokens: saved.memoryTokens + report.tokens.memorySaved,
          },
        };
        session.dirty = true;
      }),
    flush: (sessionID) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (session.dirty) await save(session, session.state);
      }),
    move: (sessionID, target) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID, { intents: true });
        const messageID = session.state.ledger.order.at(-1);
        if (session.subagent || messageID === undefined) throw new Error("no request has been routed in this session yet");
        return moveMessage(session, sessionID, messageID, target);
      }),
    setOff: (sessionID, off) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID, { intents: true });
        if (!session.subagent) await switchOff(session, sessionID, off);
      }),
    pickUp: async () => {
      // Only sessions this server holds: another session gets its intents at its next step,
      // and a session another OpenCode process runs is that process's to change.
      for (const sessionID of await sessionsWithInbox(deps.stateDir)) {
        if (!sessions.has(sessionID)) continue;
        await serialised(sessionID, async () => {
          await open(sessionID, { intents: true });
        }).catch((error: unknown) => deps.logger.log("warn", `could not apply changes from the TUI or CLI: ${error instanceof Error ? error.message : String(error)}`, { sessionID }));
      }
    },
    learn: (sessionID, groups) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (!session.subagent) fold(session, groups);
      }),
    snapshot: (sessionID) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID, { intents: true });
        return session.subagent ? undefined : session.state;
      }),
    async current(sessionID) {
      const loaded = sessions.get(sessionID);
      if (!loaded) return this.snapshot(sessionID);
      const session = await loaded;
      return session.subagent ? undefined : session.state;
    },
    forget: (sessionID) => {
      sessions.delete(sessionID);
      queues.delete(sessionID);
      void removeInbox(deps.stateDir, sessionID).catch(() => undefined);
    },
    commitRecord: (sessionID, record, update) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (session.subagent) return;
        const records = record ? { ...session.state.records, [record.task]: record } : session.state.records;
        await save(session, { ...session.state, records, memoryUpdates: [...session.state.memoryUpdates, update] });
      }),
  };
}

/** A task index that knows the ledger's tasks and current task but no evidence yet. */
function emptyIndex(ledger: Ledger): Pick<RoutedSession, "index" | "folded" | "finished"> {
  const index = new TaskIndex();
  for (const task of ledger.tasks) index.addTask(task.id, task.title);
  const last = ledger.order[ledger.order.length - 1];
  index.current = last === undefined ? undefined : ledger.decisions[last]?.task;
  return { index, folded: { requests: new Set(), toolCalls: new Set() }, finished: new Set() };
}
