import type { OpencodeModelRef } from "../auxiliary/opencode-client.js";
import type { InteractionGroup } from "../core/interaction-groups.js";
import type { TaskRecord } from "../core/memory/record.js";
import type { Message, MessageWithParts } from "../core/messages.js";
import type { FoldedEvidence } from "../core/routing/group-evidence.js";
import type { EarlierTasks } from "../core/routing/resume-verdict.js";
import type { Evidence, TaskIndex } from "../core/routing/task-index.js";
import type { SessionState } from "../store/session-state-file.js";

/**
 * Everything the plug-in holds in memory about one session, in one object that the sessions'
 * cache owns (session-store.ts `createLiveSessions`): it leaves memory whole, when the session
 * is deleted or when it is the least recently used of too many. Routing, memory, the call
 * budget and the group caches are functions over it; none keeps a map of sessions of its own.
 */
export interface LiveSession {
  readonly sessionID: string;
  /** The persisted state, read from its file at the session's first step (session-store.ts); undefined until then. */
  stored: Promise<StoredSession> | undefined;
  /** The session's steps run one at a time: the last one queued. */
  queue: Promise<unknown> | undefined;
  /** The router's index of the session's tasks (session-routing.ts); built at the first step that needs it. */
  routing: RoutingIndex | undefined;
  /** The memory's bits (session-memory.ts). */
  memory: MemoryBits;
  /** What the last model call was grouped from (group-cache.ts). */
  groups: GroupsMemo | undefined;
  /** Each finished group's estimated tokens, by group id (group-token-cache.ts). */
  groupTokens: Map<string, { size: number; tokens: number }>;
  /** What the call budget learned of the host's overhead (call-budgets.ts). */
  budget: LearnedBudget | undefined;
  /** The host is compacting: its next model call is the compaction clone, passed through. */
  compactionClone: boolean;
  /** The earlier sessions' unfinished tasks it may resume, as read at `at` (session-resume.ts), with each one's evidence. */
  earlier: { at: number; tasks: EarlierTasks; evidence: Map<string, readonly Evidence[]> } | undefined;
  /** The model and agent of the session's latest request: the aux model's last resort, and what a stored answer keeps. */
  model: OpencodeModelRef | undefined;
  agent: string | undefined;
}

/** One session as a store step sees it (read-only: only the store changes its state, in commit and stage). */
export interface StoredSession {
  readonly sessionID: string;
  /** A sub-agent session: nothing is routed or remembered for it, and its state is never written. */
  readonly subagent: boolean;
  /** As last committed, or as changed earlier in this step. */
  readonly state: SessionState;
  /** The rest of what is held in memory about the session. */
  readonly live: LiveSession;
}

/** What routing keeps beside a stored session: the task index and what is folded into it. */
export interface RoutingIndex {
  index: TaskIndex;
  /** Evidence already in the index. */
  folded: FoldedEvidence;
  /** Groups of finished turns whose evidence is all in the index. */
  finished: Set<string>;
  /** The groups the last model call saw: when the next request arrives, its turn has ended and may settle. */
  seen: readonly InteractionGroup[];
}

/** A model call's messages as observed, with their groups when the call had them. */
export interface ObservedView {
  messages: readonly MessageWithParts[];
  groups: readonly InteractionGroup[] | undefined;
}

/** What the memory holds between a session's calls and its updates. */
export interface MemoryBits {
  /** The last model call's messages: taken by the next update, so an idle session holds no messages. */
  view: ObservedView | undefined;
  /** The assistant step that ended the latest turn, as the host announced it. */
  endedStep: Extract<Message, { role: "assistant" }> | undefined;
  /** The update running now. */
  running: Promise<void> | undefined;
  /** A turn ended while an update ran: one more pass. */
  again: boolean;
  /** A compaction asked for every record to be brought up to date: one more pass over everything. */
  complete: boolean;
  /** The record the calls of one request are given (the same bytes for the whole turn). */
  pin: { requestID: string; task: string; record: TaskRecord | undefined } | undefined;
  /** Per task: how many uncovered groups it had when its update failed (retried only once it has more). */
  failedAt: Map<string, number>;
}

/** What a session's last call was grouped from: its messages' ids, how many of them were finished, its groups. */
export interface GroupsMemo {
  ids: string[];
  /** Messages before this position were finished: a user message, or an assistant step with its completion time (OpenCode sets it on a failed or aborted step too). */
  stableBefore: number;
  groups: InteractionGroup[];
}

/** What the call budget learned from the session's steps. */
interface LearnedBudget {
  sent?: number;
  /** The assistant message the overhead was last learned from. */
  from?: string;
  overhead: number;
}

/** A session the plug-in has just met: nothing known yet. */
export function newLiveSession(sessionID: string): LiveSession {
  return {
    sessionID,
    stored: undefined,
    queue: undefined,
    routing: undefined,
    memory: { view: undefined, endedStep: undefined, running: undefined, again: false, complete: false, pin: undefined, failedAt: new Map() },
    groups: undefined,
    groupTokens: new Map(),
    budget: undefined,
    compactionClone: false,
    earlier: undefined,
    model: undefined,
    agent: undefined,
  };
}
