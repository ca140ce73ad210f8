import { messageOf } from "../../kit/errors/message-of.js";
import { clip } from "../core/clip.js";
import { toInteractionGroups } from "../core/interaction-groups.js";
import type { TaskRecord } from "../core/memory/record.js";
import type { RoutingDecision } from "../core/routing/decision.js";
import { type FoldedEvidence, newEvidence } from "../core/routing/group-evidence.js";
import { evidenceTasks } from "../core/routing/group-tasks.js";
import { type Ledger, type LedgerEntry, type LedgerTask, type ResumedFrom, resumeTask } from "../core/routing/ledger.js";
import {
  type EarlierTask,
  type EarlierTasks,
  indexEarlierTasks,
  mayResume,
  RESUMED_CONFIDENCE,
  type ResumeVerdict,
  resumeVerdict,
} from "../core/routing/resume-verdict.js";
import type { Signals } from "../core/routing/signals.js";
import type { Evidence, TaskIndex } from "../core/routing/task-index.js";
import { noteSessionInUse } from "../store/live-sessions-file.js";
import { indexedEvidence, type ResumedTask, type ResumeOffer, sessionStateFile, storedEvidence } from "../store/session-state-file.js";
import { claimTask, taskKey } from "../store/task-marks.js";
import { type UnfinishedTask, unfinishedTasks } from "../store/unfinished-tasks.js";
import type { StoredSession } from "./live-session.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";

/** What resuming an earlier task changes in a session: its ledger, and the task's records and evidence to keep. */
export interface Resumption {
  ledger: Ledger;
  task: LedgerTask;
  /** The decision of the request that resumed it; none for `/rcm resume`. */
  entry: LedgerEntry | undefined;
  carried: ResumedTask;
}

/** How a request stands towards the earlier sessions' tasks. */
export type Considered = { kind: "resumed"; resumption: Resumption } | { kind: "offered"; offer: ResumeOffer } | undefined;

/** Unfinished tasks of the project's earlier sessions, taken up in a new one (issue: a task outlives its session). */
export interface SessionResume {
  /**
   * Inside routing's step, given the router's decision for a request: where the session's
   * own routing is not sure it belongs to one of its tasks, whether it names an earlier task
   * decisively (resumed: claimed, its records and evidence come along) or not (offered).
   */
  consider(options: {
    session: StoredSession;
    messageID: string;
    text: string;
    signals: Signals;
    decision: RoutingDecision;
    index: TaskIndex;
  }): Promise<Considered>;
  /** Inside a step: `/rcm resume`; throws what the person must read. */
  resume(session: StoredSession, key: string): Promise<Resumption>;
  /** The earlier tasks the session may resume, most recently active first. */
  earlier(session: StoredSession): Promise<readonly EarlierTask[]>;
  /** A request was routed in the session: other processes of the project see it in use (written at most once a minute per session). */
  inUse(sessionID: string): Promise<void>;
}

/** How often a session's use is noted for other processes: well inside `IN_USE_MS`. */
const IN_USE_NOTE_MS = 60_000;
/** The list of earlier tasks is read again after this long: another session (another TUI) may have taken one. */
const EARLIER_TTL_MS = 15_000;
/** A task's evidence is its newest requests': enough to name it, bounded in the state file. */
const MAX_EVIDENCE = 40;
const MAX_EVIDENCE_CHARS = 2_000;

export function createSessionResume(deps: {
  stateDir: string;
  source: SessionSource;
  logger: Logger;
  threshold: number;
  maxAgeDays: number;
  maxTasks: number;
  /** `resume.automatic`: a request may resume a task (false: only `/rcm resume`). */
  automatic: boolean;
  now?: () => Date;
}): SessionResume {
  const now = deps.now ?? (() => new Date());
  const reported = new Set<string>();
  const noted = new Map<string, number>();

  const earlierOf = async (session: StoredSession): Promise<EarlierTasks> => {
    const held = session.live.earlier;
    if (held && now().getTime() - held.at < EARLIER_TTL_MS) return held.tasks;
    const listed = await unfinishedTasks({
      stateDir: deps.stateDir,
      now: now(),
      maxAgeDays: deps.maxAgeDays,
      maxTasks: deps.maxTasks,
      exceptSession: session.sessionID,
      withDone: true,
    });
    // Each unreadable file once per server: skipped, never loaded, moved or deleted (the panel counts them too).
    for (const problem of listed.problems) {
      if (reported.has(problem)) continue;
      reported.add(problem);
      await deps.logger.log("warn", `earlier sessions' tasks: ${problem}`, { sessionID: session.sessionID });
    }
    const known = held?.evidence ?? new Map<string, readonly Evidence[]>();
    const evidence = new Map<string, readonly Evidence[]>();
    const earlierTask = async (task: UnfinishedTask): Promise<EarlierTask> => {
      const key = taskKey(task.sessionID, task.taskId);
      const shown = known.get(key) ?? (await evidenceOf(deps, task.sessionID, task.taskId));
      evidence.set(key, shown);
      return {
        key,
        sessionID: task.sessionID,
        taskId: task.taskId,
        title: task.taskTitle,
        sessionTitle: task.sessionTitle,
        lastActive: task.lastActive.toISOString(),
        pending: task.pending,
        evidence: shown,
      };
    };
    const tasks: EarlierTask[] = [];
    // A task whose session another running OpenCode works in is taken there.
    for (const task of listed.tasks.filter((candidate) => candidate.inUseBy === undefined)) tasks.push(await earlierTask(task));
    const finished: EarlierTask[] = [];
    // Bounded as the unfinished ones are: the most recently active.
    for (const task of (listed.done ?? []).slice(0, deps.maxTasks)) finished.push(await earlierTask(task));
    const indexed = indexEarlierTasks(tasks, finished);
    session.live.earlier = { at: now().getTime(), tasks: indexed, evidence };
    return indexed;
  };

  /** Claims the task and reads its records; undefined when another session took it (or it was marked) meanwhile. */
  const take = async (
    session: StoredSession,
    task: EarlierTask,
    how: { messageID?: string; confidence: number; reason: string; by: ResumedFrom["by"] },
  ): Promise<Resumption | undefined> => {
    const from: ResumedFrom = {
      session: task.sessionID,
      task: task.taskId,
      ...(task.sessionTitle ? { sessionTitle: task.sessionTitle } : {}),
      lastActive: task.lastActive,
      pending: task.pending,
      by: how.by,
    };
    const resumed = resumeTask(session.state.ledger, { from, title: task.title, messageID: how.messageID, confidence: how.confidence, reason: how.reason });
    const marked = await claimTask(deps.stateDir, {
      sessionID: task.sessionID,
      taskId: task.taskId,
      by: taskKey(session.sessionID, resumed.task.id),
      at: now(),
    });
    // Listed a moment ago, taken since: the list is read again at the next request.
    session.live.earlier = undefined;
    if (marked) {
      await deps.logger.log("info", `${task.key} is ${marked.mark}${marked.by ? ` by ${marked.by}` : ""} already: not resumed here`, {
        sessionID: session.sessionID,
      });
      return undefined;
    }
    const records = await recordsOf(deps.stateDir, task.sessionID, task.taskId);
    await deps.logger.log(
      "info",
      `resumed ${task.key} "${task.title}" as ${resumed.task.id}${how.messageID ? ` (${how.reason})` : " on the user's word"}, with ${records.length === 0 ? "no record" : records.length === 1 ? "its record" : `its ${records.length} records`}`,
      { sessionID: session.sessionID, ...(how.messageID ? { messageID: how.messageID } : {}) },
    );
    return { ledger: resumed.ledger, task: resumed.task, entry: resumed.entry, carried: { records, evidence: task.evidence.map(storedEvidence) } };
  };

  return {
    async consider({ session, messageID, text, signals, decision, index }) {
      if (!deps.automatic) return undefined;
      const earlier = await earlierOf(session);
      const sureHere = !mayResume(decision, deps.threshold);
      const verdict: ResumeVerdict | undefined = resumeVerdict({ text, signals, earlier, current: index, sureHere });
      if (!verdict) return undefined;
      const { task } = verdict;
      if (verdict.kind === "offer") {
        await deps.logger.log("info", `offered to resume ${task.key} "${task.title}": the request ${verdict.why}, not surely`, {
          sessionID: session.sessionID,
          messageID,
        });
        return {
          kind: "offered",
          offer: {
            messageID,
            session: task.sessionID,
            task: task.taskId,
            title: task.title,
            ...(task.sessionTitle ? { sessionTitle: task.sessionTitle } : {}),
            lastActive: task.lastActive,
            why: verdict.why,
          },
        };
      }
      const confidence = Math.max(RESUMED_CONFIDENCE, deps.threshold);
      const reason = `resumes ${task.taskId} of session ${task.sessionTitle ? `"${task.sessionTitle}"` : task.sessionID}: ${verdict.why}`;
      const resumption = await take(session, task, { messageID, confidence, reason, by: "router" });
      return resumption ? { kind: "resumed", resumption } : undefined;
    },
    async resume(session, key) {
      const earlier = await earlierOf(session);
      const task = earlier.byKey.get(key);
      if (!task) {
        const keys = [...earlier.byKey.keys()];
        throw new Error(`no unfinished task ${key} in an earlier session${keys.length > 0 ? ` (there are: ${keys.join(", ")})` : " (there is none)"}`);
      }
      const resumption = await take(session, task, { confidence: 1, reason: "user", by: "user" });
      if (!resumption) throw new Error(`${key} was taken up or marked meanwhile`);
      return resumption;
    },
    earlier: async (session) => [...(await earlierOf(session)).byKey.values()],
    async inUse(sessionID) {
      const at = now();
      const last = noted.get(sessionID);
      if (last !== undefined && at.getTime() - last < IN_USE_NOTE_MS) return;
      noted.set(sessionID, at.getTime());
      await noteSessionInUse(deps.stateDir, sessionID, at);
    },
  };
}

/** The task's records in its session: those it brought from before (oldest first), then its own there. */
async function recordsOf(stateDir: string, sessionID: string, taskId: string): Promise<TaskRecord[]> {
  const read = await sessionStateFile(stateDir, sessionID).peek();
  if (read.status !== "loaded") return [];
  const own = read.value.records[taskId];
  return [...(read.value.resumed?.[taskId]?.records ?? []), ...(own ? [own] : [])];
}

/**
 * What the task's session showed of it: the settled requests routed to it and what their
 * work touched (as the router indexes a session's own tasks), after what it brought from
 * an earlier session. A session OpenCode no longer has: its record's goal, asks and files.
 */
async function evidenceOf(
  deps: { stateDir: string; source: SessionSource; logger: Logger; threshold: number },
  sessionID: string,
  taskId: string,
): Promise<Evidence[]> {
  const read = await sessionStateFile(deps.stateDir, sessionID).peek();
  if (read.status !== "loaded") return [];
  const state = read.value;
  const evidence: Evidence[] = (state.resumed?.[taskId]?.evidence ?? []).map(indexedEvidence);
  const messages = await deps.source.messages(sessionID).catch(async (error: unknown) => {
    await deps.logger.log("warn", `could not read earlier session ${sessionID}'s history (${messageOf(error)}): its tasks are known by their records`, {
      sessionID,
    });
    return [];
  });
  const groups = toInteractionGroups(messages);
  const owners = evidenceTasks(groups, state.ledger, deps.threshold);
  const folded: FoldedEvidence = { requests: new Set(), toolCalls: new Set() };
  groups.forEach((group, position) => {
    if (owners[position] === taskId) evidence.push(...newEvidence(group, folded));
  });
  const record = state.records[taskId];
  if (groups.length === 0 && record)
    evidence.push({ text: [record.goal, ...record.constraints.map((constraint) => constraint.text)].join("\n"), paths: record.files });
  return evidence.slice(-MAX_EVIDENCE).map((item) => (item.text === undefined ? item : { ...item, text: clip(item.text, MAX_EVIDENCE_CHARS) }));
}
