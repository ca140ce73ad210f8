import { toInteractionGroups } from "../core/interaction-groups.js";
import type { InteractionGroup } from "../core/interaction-groups.js";
import { newEvidence, type FoldedEvidence } from "../core/routing/group-evidence.js";
import { groupTasks } from "../core/routing/group-tasks.js";
import type { Ledger, LedgerEntry, LedgerTask } from "../core/routing/ledger.js";
import { routeRequest } from "../core/routing/route-request.js";
import type { Router } from "../core/routing/router.js";
import { TaskIndex } from "../core/routing/task-index.js";
import { sessionStateFile } from "../store/session-state-file.js";
import type { VersionedJsonFile } from "../store/versioned-json-file.js";
import type { MemoryUpdateLog, SessionState } from "../store/session-state-file.js";
import type { TaskRecord } from "../core/memory/record.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";

/** The routing state of the sessions this server runs, one entry per session. */
export interface SessionRouting {
  /** Routes a user request (chat.message) and persists the decision before the turn starts. */
  route(sessionID: string, messageID: string, text: string): Promise<{ entry: LedgerEntry; task: LedgerTask } | undefined>;
  /** The session's ledger for the transform; undefined for a sub-agent session (passed through untouched). */
  ledger(sessionID: string): Promise<Ledger | undefined>;
  /**
   * Folds what the groups of a model call show (request texts, finished tool calls) into the
   * router's index, each piece once, so routing the next request needs no second read of
   * the history.
   */
  learn(sessionID: string, groups: readonly InteractionGroup[]): Promise<void>;
  /** The session's persisted state (ledger and records) as it is now; undefined for a sub-agent session. */
  snapshot(sessionID: string): Promise<SessionState | undefined>;
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
}): SessionRouting {
  const sessions = new Map<string, Promise<RoutedSession>>();
  const queues = new Map<string, Promise<unknown>>();

  const serialised = <T>(sessionID: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(sessionID) ?? Promise.resolve();
    const next = previous.then(work, work);
    queues.set(sessionID, next.catch(() => undefined));
    return next;
  };

  const open = (sessionID: string): Promise<RoutedSession> => {
    let session = sessions.get(sessionID);
    if (!session) {
      session = load(sessionID);
      sessions.set(sessionID, session);
      session.catch(() => sessions.delete(sessionID));
    }
    return session;
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
    const index = new TaskIndex();
    const { ledger } = loaded.value;
    for (const task of ledger.tasks) index.addTask(task.id, task.title);
    const last = ledger.order[ledger.order.length - 1];
    index.current = last === undefined ? undefined : ledger.decisions[last]?.task;
    const session: RoutedSession = { file, state: loaded.value, index, folded: { requests: new Set(), toolCalls: new Set() }, finished: new Set(), subagent };
    // Once per session and process: the whole stored history, older than any compaction.
    if (!subagent) fold(session, toInteractionGroups(await deps.source.messages(sessionID)));
    return session;
  };

  /** Folds the evidence of routed groups that is not in the index yet. */
  // Groups before the latest request belong to finished turns: once folded, they are skipped.
  const fold = (session: RoutedSession, groups: readonly InteractionGroup[]): void => {
    const tasks = groupTasks(groups, session.state.ledger);
    const latest = groups.findLastIndex((group) => group.kind === "request");
    groups.forEach((group, position) => {
      if (session.finished.has(group.id)) return;
      const task = tasks[position];
      if (task?.kind === "task" && session.index.task(task.task)) {
        for (const evidence of newEvidence(group, session.folded)) session.index.addEvidence(task.task, evidence);
      }
      if (position < latest) session.finished.add(group.id);
    });
  };

  return {
    route: (sessionID, messageID, text) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (session.subagent) return undefined;
        const routed = await routeRequest({
          router: deps.router,
          ledger: session.state.ledger,
          index: session.index,
          messageID,
          text,
          sessionID,
        });
        if (routed.ledger !== session.state.ledger) {
          const state = { ...session.state, ledger: routed.ledger };
          await session.file.save(state);
          session.state = state;
          const { entry, task } = routed;
          await deps.logger.log("info", `routed to ${task.id}${entry.opened ? " (new)" : ""} "${task.title}" confidence ${entry.confidence}: ${entry.reason}`, {
            sessionID,
            messageID,
            ...(entry.aux ? { aux: entry.aux } : {}),
          });
        }
        return { entry: routed.entry, task: routed.task };
      }),
    ledger: (sessionID) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        return session.subagent ? undefined : session.state.ledger;
      }),
    learn: (sessionID, groups) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (!session.subagent) fold(session, groups);
      }),
    snapshot: (sessionID) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        return session.subagent ? undefined : session.state;
      }),
    forget: (sessionID) => {
      sessions.delete(sessionID);
      queues.delete(sessionID);
    },
    commitRecord: (sessionID, record, update) =>
      serialised(sessionID, async () => {
        const session = await open(sessionID);
        if (session.subagent) return;
        const records = record ? { ...session.state.records, [record.task]: record } : session.state.records;
        const state: SessionState = { ...session.state, records, memoryUpdates: [...session.state.memoryUpdates, update] };
        await session.file.save(state);
        session.state = state;
      }),
  };
}
