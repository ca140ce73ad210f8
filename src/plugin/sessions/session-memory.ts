import { sumOfMessages } from "../core/context/call-report.js";
import { type InteractionGroup, toInteractionGroups } from "../core/interaction-groups.js";
import { nextBatch } from "../core/memory/batches.js";
import { digestGroups } from "../core/memory/group-digest.js";
import { extendView, missesUncoveredRequest } from "../core/memory/history-since-view.js";
import type { TaskRecord } from "../core/memory/record.js";
import { requestIDsOf, uncoveredGroups } from "../core/memory/uncovered-groups.js";
import type { MemoryUpdater } from "../core/memory/updater.js";
import type { Message, MessageWithParts } from "../core/messages.js";
import type { Ledger } from "../core/routing/ledger.js";
import type { MemoryUpdateLog } from "../store/session-state-file.js";
import type { Guard } from "./fail-open-guard.js";
import type { MemoryBits, ObservedView, StoredSession } from "./live-session.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";
import type { LiveSessions, SessionStore } from "./session-store.js";

/** The tasks' memory records of the sessions this server runs: a peer of routing over the session store. */
export interface SessionMemory {
  /**
   * A model call's messages, before the plug-in changes them, and their interaction groups when
   * the call has them. The next update starts from them and reads only the newest messages from
   * OpenCode, not the whole session again (nor groups again what the call grouped).
   */
  observe(sessionID: string, messages: readonly MessageWithParts[], groups?: readonly InteractionGroup[]): void;
  /**
   * A stored message changed (OpenCode's `message.updated`): an assistant step that ended its
   * turn is kept, so an update can tell the turn finished without reading the session again.
   */
  observeStep(info: Message): void;
  /** A turn ended: bring the session's records up to date in the background. Never throws. */
  scheduleUpdate(sessionID: string): void;
  /**
   * Inside a model call's store step: the record for a call answering `requestID`. The first
   * call of a request pins the last complete record, so every call of one turn sees the same
   * bytes even when a background update finishes in between.
   */
  recordFor(session: StoredSession, requestID: string, task: string): TaskRecord | undefined;
  /**
   * OpenCode is about to compact: bring every task's record up to date now, whatever its
   * size, and resolve when done or after `waitMs` (the summary then uses what is there).
   */
  updateBeforeCompaction(sessionID: string, waitMs: number): Promise<void>;
  /** Resolves when no update of the session is running or scheduled (tests, shutdown). */
  settled(sessionID: string): Promise<void>;
}

/**
 * How many of the newest messages an update reads on top of the last call's view: after a
 * call, a turn adds its final step; more means the view is stale and the whole history is read.
 */
export const TAIL_MESSAGES = 8;

/** How long a compaction waits for the records to be brought up to date: an aux model may be slow or down. */
export const COMPACTION_UPDATE_WAIT_MS = 30_000;

/** What the memory needs: the sessions' live objects and store, the host's history, the updater. */
interface MemoryDeps {
  sessions: LiveSessions;
  store: SessionStore;
  source: SessionSource;
  updater: MemoryUpdater;
  logger: Logger;
  guard: Guard;
  /** Groups routed below it are not remembered (their task is a guess). */
  threshold: number;
  /**
   * An updater that calls a model (not `everyTurn`) brings a record up to date once the task's
   * finished, unrecorded exchanges reach this many estimated tokens (and before every
   * compaction): exchanges are replaced in batches of that size, so a smaller update could not
   * take anything out of the prompt yet. Every task's first record is written at its first
   * finished turn, whatever the updater, so the memory is there from the start.
   */
  replaceBatchTokens: number;
  /** The project's root directory: records show files relative to it. */
  root?: string | undefined;
}

/** The memory of the sessions this server runs; what it holds of a session is on its live object (`LiveSession.memory`). */
export function createSessionMemory(deps: MemoryDeps): SessionMemory {
  const settled = async (sessionID: string): Promise<void> => {
    for (let running = bitsOf(deps, sessionID)?.running; running; running = bitsOf(deps, sessionID)?.running) await running;
  };
  return {
    observe(sessionID, messages, groups) {
      deps.sessions.get(sessionID).memory.view = { messages, groups };
    },
    observeStep(info) {
      // Only a session a call was seen for: without that call's view the step is of no use.
      const bits = bitsOf(deps, info.sessionID);
      if (bits && info.role === "assistant" && info.summary !== true && endsTurn(info)) bits.endedStep = info;
    },
    scheduleUpdate(sessionID) {
      const bits = deps.sessions.get(sessionID).memory;
      if (bits.running) bits.again = true;
      else void run(deps, sessionID, bits);
    },
    async updateBeforeCompaction(sessionID, waitMs) {
      const bits = deps.sessions.get(sessionID).memory;
      bits.complete = true;
      if (!bits.running) void run(deps, sessionID, bits);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      try {
        await Promise.race([settled(sessionID), timeout]);
      } finally {
        clearTimeout(timer);
        // The turn goes on after the summary with a new prompt: its calls take the new records.
        bits.pin = undefined;
      }
    },
    recordFor(session, requestID, task) {
      const bits = session.live.memory;
      const { pin } = bits;
      if (pin && pin.requestID === requestID && pin.task === task) return pin.record;
      const record = session.state.records[task];
      bits.pin = { requestID, task, record };
      return record;
    },
    settled,
  };
}

/** The memory's bits of a session in memory (none for one that left it). */
function bitsOf(deps: MemoryDeps, sessionID: string): MemoryBits | undefined {
  return deps.sessions.peek(sessionID)?.memory;
}

// One update at a time per session; an idle that arrives meanwhile runs one more pass, and
// a compaction one more pass over everything.
function run(deps: MemoryDeps, sessionID: string, bits: MemoryBits): Promise<void> {
  const work = (async () => {
    do {
      bits.again = false;
      const everything = bits.complete;
      bits.complete = false;
      await deps.guard("memory update", sessionID, () => updateOnce(deps, sessionID, bits, everything));
    } while (bits.again || bits.complete);
  })().finally(() => {
    if (bits.running === work) bits.running = undefined;
  });
  bits.running = work;
  return work;
}

async function updateOnce(deps: MemoryDeps, sessionID: string, bits: MemoryBits, everything: boolean): Promise<void> {
  const { threshold } = deps;
  // Records change only here, one update at a time per session: the committed state will do.
  const state = await deps.store.current(sessionID);
  if (!state || state.off || state.ledger.tasks.length === 0) return;
  const { messages, groups, read } = await historyFor(deps, sessionID, bits, state);
  const pending = uncoveredGroups({ messages, groups: groups ?? toInteractionGroups(messages), ledger: state.ledger, records: state.records, threshold });
  for (const task of state.ledger.tasks) {
    const groups = pending.get(task.id);
    // A task whose update failed is retried only once it has more uncovered groups, so a
    // broken aux model is not asked again at every turn of every other task.
    if (!groups || (bits.failedAt.get(task.id) ?? -1) >= groups.length) continue;
    const due = everything || deps.updater.everyTurn || state.records[task.id] === undefined || reachesBatch(deps.replaceBatchTokens, groups, messages);
    if (!due) continue;
    let remaining = digestGroups(messages, groups);
    let previous = state.records[task.id];
    const requestIDs = requestIDsOf(state.ledger, task.id, threshold);
    while (remaining.length > 0) {
      const batch = nextBatch(remaining, deps.updater.limits);
      const result = await deps.updater.update({ task, previous, batch, requestIDs, sessionID, root: deps.root });
      const log = { task: task.id, updater: deps.updater.name, groups: batch.length, read };
      if (!result.ok) {
        bits.failedAt.set(task.id, remaining.length);
        await commitRecord(deps, sessionID, undefined, { ...log, ok: false, ...(result.aux ? { aux: result.aux } : {}) });
        await deps.logger.log("warn", `memory update of ${task.id} failed; its previous record stays: ${result.reason}`, { sessionID });
        break;
      }
      const aux = result.record.lastUpdate.aux;
      await commitRecord(deps, sessionID, result.record, { ...log, ok: true, ...(aux ? { aux } : {}) });
      // Every update is in the state file's log. A log line is an HTTP call into the server, and
      // the extractive updater runs after every turn: only what someone would look for gets one
      // (the rules changed the proposal, a model answered, the whole history had to be read).
      if (result.record.lastUpdate.notes.length > 0 || aux || read === "whole") {
        await deps.logger.log(
          "info",
          `memory of ${task.id} updated by the ${deps.updater.name} updater: covers ${result.record.coverage.groups.length} groups`,
          {
            sessionID,
            read,
            notes: result.record.lastUpdate.notes,
            ...(aux ? { aux } : {}),
          },
        );
      }
      bits.failedAt.delete(task.id);
      previous = result.record;
      remaining = remaining.slice(batch.length);
    }
  }
}

/** Stores a task's next record with the ledger, in one atomic write, and logs the update. */
function commitRecord(deps: MemoryDeps, sessionID: string, record: TaskRecord | undefined, update: MemoryUpdateLog): Promise<void> {
  return deps.store.step(
    sessionID,
    async (session) => {
      if (session.subagent) return;
      // A move while the update ran: a record of requests that left its task is not kept (the next update writes it again).
      if (record && !stillItsTask(record, session.state.ledger)) return;
      const records = record ? { ...session.state.records, [record.task]: record } : session.state.records;
      await deps.store.commit(session, { ...session.state, records, memoryUpdates: [...session.state.memoryUpdates, update] });
    },
    { intents: false },
  );
}

// The whole stored history costs the server a read and a serialisation of every message;
// the last call's view and the newest few messages nearly always hold what is uncovered.
// An updater that runs after every turn reads nothing at all: the last call's view holds
// every step of the turn but its last, whose end OpenCode announced (`observeStep`); the
// rules read tool calls, never that step's text.
// The call's groups come along where the messages are the call's plus that last step; the
// newest messages read from OpenCode replace some of the view's, so those are grouped again.
async function historyFor(
  deps: MemoryDeps,
  sessionID: string,
  bits: MemoryBits,
  state: { ledger: Ledger; records: Readonly<Record<string, TaskRecord>> },
): Promise<{ messages: MessageWithParts[]; groups?: InteractionGroup[] | undefined; read: "view" | "whole" }> {
  const { threshold } = deps;
  const observed = bits.view;
  bits.view = undefined;
  const view = observed?.messages;
  const last = bits.endedStep;
  if (observed && last && deps.updater.everyTurn) {
    const ended = withEndedStep(observed, last);
    if (ended && !missesUncoveredRequest({ messages: ended.messages, ...state, threshold })) return { ...ended, read: "view" };
  }
  if (view) {
    const extended = extendView(view, await deps.source.recentMessages(sessionID, TAIL_MESSAGES), TAIL_MESSAGES);
    if (extended && !missesUncoveredRequest({ messages: extended, ...state, threshold })) return { messages: extended, read: "view" };
  }
  return { messages: await deps.source.messages(sessionID), read: "whole" };
}

function reachesBatch(replaceBatchTokens: number, groups: readonly InteractionGroup[], messages: readonly MessageWithParts[]): boolean {
  if (replaceBatchTokens <= 0) return true;
  let tokens = 0;
  for (const group of groups) {
    tokens += sumOfMessages(group, messages);
    if (tokens >= replaceBatchTokens) return true;
  }
  return false;
}

type AssistantInfo = Extract<Message, { role: "assistant" }>;

/** Every request the record covers is still its task's. */
function stillItsTask(record: TaskRecord, ledger: Ledger): boolean {
  return record.coverage.groups.every((id) => {
    const entry = ledger.decisions[id];
    return entry === undefined || entry.task === record.task;
  });
}

/** A step that ended its turn: completed without asking for tools, or failed. */
function endsTurn(info: AssistantInfo): boolean {
  return info.error !== undefined || (info.time.completed !== undefined && info.finish !== undefined && info.finish !== "tool-calls");
}

/**
 * The view with the turn's final step (its stored info; the parts are not needed) after it,
 * when that step answers the view's latest request and is not in the view yet; otherwise
 * undefined (the view is from another turn, or already has it). With the view's groups, the
 * groups of the result: the step joins its request's group, as `toInteractionGroups` would put
 * it (no parts, so no tool calls; never a summary, see `observeStep`).
 */
function withEndedStep(view: ObservedView, step: AssistantInfo): { messages: MessageWithParts[]; groups: InteractionGroup[] | undefined } | undefined {
  const { messages } = view;
  const latest = messages.findLast((message) => message.info.role === "user");
  if (latest === undefined || step.parentID !== latest.info.id || messages.some((message) => message.info.id === step.id)) return undefined;
  const position = messages.length;
  const groups = view.groups?.map((group) => {
    if (group.id !== step.parentID) return group;
    const aborted = group.aborted || step.error?.name === "MessageAbortedError";
    const errors = step.error && step.error.name !== "MessageAbortedError" ? [...group.errors, step.error.name] : group.errors;
    return { ...group, indices: [...group.indices, position], aborted, errors };
  });
  return { messages: [...messages, { info: step, parts: [] }], groups };
}
