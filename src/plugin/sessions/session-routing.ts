import { messageOf } from "../../kit/errors/message-of.js";
import type { InteractionGroup } from "../core/interaction-groups.js";
import { toInteractionGroups } from "../core/interaction-groups.js";
import { carriesOn } from "../core/routing/carried-on.js";
import type { RoutingDecision } from "../core/routing/decision.js";
import { editedPaths, maySettle, readPaths, settlementsOf } from "../core/routing/edit-evidence.js";
import { newEvidence } from "../core/routing/group-evidence.js";
import { evidenceTasks, type GroupTask, groupTasks } from "../core/routing/group-tasks.js";
import {
  carriedOnRequest,
  confirmRequest,
  isSettled,
  type Ledger,
  type LedgerEntry,
  type LedgerTask,
  moveRequests,
  noteRecall,
  relabelRequest,
  settledCurrentTask,
  settledTasks,
} from "../core/routing/ledger.js";
import { routeRequest } from "../core/routing/route-request.js";
import type { Router } from "../core/routing/router.js";
import { extractSignals, type Signals } from "../core/routing/signals.js";
import { TaskIndex } from "../core/routing/task-index.js";
import { taskTitle } from "../core/routing/task-title.js";
import { type MoveIntent, splitTargetProblem } from "../session-views/move-selection.js";
import { indexedEvidence, type ResumeOffer, type SessionState } from "../store/session-state-file.js";
import type { RoutingIndex, StoredSession } from "./live-session.js";
import type { Logger } from "./logger.js";
import type { Considered, SessionResume } from "./session-resume.js";
import type { SessionSource } from "./session-source.js";
import type { SessionStore } from "./session-store.js";

/** The routing of the sessions this server runs: a peer of the memory over the session store. */
export interface SessionRouting {
  /**
   * Routes a user request (chat.message) and persists the decision before the turn starts;
   * `previous` is the task current before it. Undefined for a sub-agent session or one
   * the user switched off.
   */
  route(sessionID: string, messageID: string, text: string): Promise<Routed | undefined>;
  /**
   * Inside a store step (a model call's): folds what the groups of the call show (request
   * texts, finished tool calls) into the router's index, each piece once, so routing the next
   * request needs no second read of the history. A turn settled by its edits is relabelled or
   * confirmed first, in the session's state, so the call that learns it already shows it.
   * Returns where each group belongs under the ledger as it now stands (the call's view reuses
   * it), or undefined when it learned nothing (a sub-agent session).
   */
  learn(session: StoredSession, groups: readonly InteractionGroup[]): Promise<readonly GroupTask[] | undefined>;
  /**
   * Inside a store step: `/rcm move` (verb-dispatcher.ts): the requests now belong to `target`;
   * stored as decisions with reason "user", sure evidence folded back into the index, so later
   * requests route with them. The records of the tasks they left and joined are dropped, to be
   * written again from the moved evidence. Throws why it cannot move them.
   */
  applyMove(session: StoredSession, move: MoveIntent): Promise<MoveDone>;
  /**
   * Inside a store step: the model recalled a task's hidden history (`rcm_recall`) while
   * answering the request. Noted on its decision (written now); when that settles an unsure
   * decision (or unsettles one), the index is built again from the ledger at the next step.
   * Returns the decision as it stands, undefined for a request never routed.
   */
  recalled(session: StoredSession, messageID: string, recall: { task: string; exchanges: number }): Promise<LedgerEntry | undefined>;
}

/** A request routed: its decision and task (`task.resumed` when it resumed one), the task current before it, the ledger with it. */
interface Routed {
  entry: LedgerEntry;
  task: LedgerTask;
  previous: string | undefined;
  ledger: Ledger;
  /** It pointed to an earlier session's task, not surely: offered, nothing brought in. */
  offer?: ResumeOffer | undefined;
}

/** What a move did: the requests that moved, the task they came from (each), the task they joined. */
export interface MoveDone {
  moved: readonly { messageID: string; from: string }[];
  entry: LedgerEntry;
  task: LedgerTask;
  /** Requests whose edits now land in `task`'s files, which the move left where they are (they are never relabelled by those edits). */
  held: readonly { messageID: string; task: string; files: readonly string[] }[];
  /** Requests relabelled in the same step by their own turn's edits, as they would have been at the next request anyway. */
  followed: readonly { messageID: string; task: string; files: readonly string[] }[];
}

/** The session's index; built from the whole stored history (older than any compaction) once per session and process. */
async function indexOf(deps: RoutingDeps, session: StoredSession): Promise<RoutingIndex> {
  const { threshold } = deps;
  let indexed = session.live.routing;
  if (!indexed) {
    indexed = emptyIndex(session.state.ledger, threshold, session.state.resumed);
    session.live.routing = indexed;
    fold(deps, session, indexed, toInteractionGroups(await deps.source.messages(session.sessionID)));
  }
  return indexed;
}

async function applyMove(deps: RoutingDeps, session: StoredSession, move: MoveIntent): Promise<MoveDone> {
  const { threshold } = deps;
  const { ledger } = session.state;
  const { sessionID } = session;
  const { target } = move;
  for (const { messageID } of move.requests) if (ledger.decisions[messageID] === undefined) throw new Error("that request was never routed in this session");
  if (target.kind === "task" && !ledger.tasks.some((task) => task.id === target.task)) {
    throw new Error(`no task ${target.task} in this session (tasks: ${ledger.tasks.map((task) => task.id).join(", ")})`);
  }
  const refused = target.kind === "task" ? splitTargetProblem(ledger, target.task) : undefined;
  if (refused) throw new Error(refused);
  const groups = toInteractionGroups(await deps.source.messages(sessionID));
  const ids = move.requests.map((request) => request.messageID);
  const firstID = ledger.order.find((id) => ids.includes(id));
  const title = taskTitle(groups.find((group) => group.id === firstID)?.requestText ?? "");
  const moved = moveRequests(ledger, ids, target.kind === "new" ? { kind: "new", title } : target);
  // What the move alone would settle besides the requests named: a request whose edits land in
  // files the moved requests took along would follow them. It stays; the answer says so.
  // Every turn counts as over (a move comes between turns): the latest one settles at the next request.
  const relabels = (of: Ledger) =>
    settlementsOf({ groups, ledger: of, threshold, finishedBefore: groups.length }).filter((settlement) => settlement.kind === "relabel");
  const already = new Set(relabels(ledger).map((settlement) => `${settlement.messageID} ${settlement.task}`));
  const known = new Set((session.state.held ?? []).map((hold) => hold.messageID));
  const held = relabels(moved.ledger)
    .filter((settlement) => !ids.includes(settlement.messageID) && !already.has(`${settlement.messageID} ${settlement.task}`))
    .map(({ messageID, task, files }) => ({ messageID, task, files }));
  // Settled by the turn's own edits whatever the move (now, or when the next request ends its turn): the answer says so.
  const followed = relabels(moved.ledger)
    .filter((settlement) => !ids.includes(settlement.messageID) && already.has(`${settlement.messageID} ${settlement.task}`))
    .map(({ messageID, task, files }) => ({ messageID, task, files }));
  const holds = [...(session.state.held ?? []).filter((hold) => !ids.includes(hold.messageID)), ...held.filter((hold) => !known.has(hold.messageID))];
  // The records of the tasks the requests left and joined no longer match the ledger: dropped,
  // the memory writes them again from the groups each task now has (never patched by hand).
  const touched = new Set([moved.task.id, ...move.requests.map((request) => request.from)]);
  const records = Object.fromEntries(Object.entries(session.state.records).filter(([task]) => !touched.has(task)));
  const dropped = Object.keys(session.state.records).filter((task) => touched.has(task));
  await deps.store.commit(session, { ...session.state, ledger: moved.ledger, records, ...(holds.length > 0 ? { held: holds } : {}) });
  // The index forgets what it folded under the old tasks and folds the history again.
  const indexed = emptyIndex(moved.ledger, threshold, session.state.resumed);
  session.live.routing = indexed;
  fold(deps, session, indexed, groups);
  const froms = [...new Set(move.requests.map((request) => request.from))].join(", ");
  await deps.logger.log(
    "info",
    `moved ${move.requests.length === 1 ? "a request" : `${move.requests.length} requests`} from ${froms} to ${moved.task.id}${moved.entry.opened ? " (new)" : ""} "${moved.task.title}" on the user's word`,
    {
      sessionID,
      messageIDs: ids,
      recordsDropped: dropped,
    },
  );
  for (const hold of held) {
    await deps.logger.log(
      "info",
      `left a request in ${moved.ledger.decisions[hold.messageID]?.task ?? "?"} that the move would have relabelled to ${hold.task} (its edits: ${hold.files.join(", ")}): only the requests named move`,
      { sessionID, messageID: hold.messageID },
    );
  }
  deps.onMoved?.(sessionID);
  return { moved: move.requests, entry: moved.entry, task: moved.task, held, followed };
}

/**
 * Folds the evidence of settled groups that is not in the index yet; an unsure request's
 * work stays out until its edits or the user settle it. `ended`: groups before this
 * position belong to finished turns (by default, those before the latest request).
 */
function fold(deps: RoutingDeps, session: StoredSession, indexed: RoutingIndex, groups: readonly InteractionGroup[], ended?: number): GroupTask[] {
  const { threshold } = deps;
  const latest = ended ?? groups.findLastIndex((group) => group.kind === "request");
  const current = settle(deps, session, groups, latest) ?? indexed;
  current.seen = groups;
  // Resolved once, under the ledger as settled: the evidence's tasks, and the call view's.
  const where = groupTasks(groups, session.state.ledger);
  const tasks = evidenceTasks(groups, session.state.ledger, threshold, where);
  groups.forEach((group, position) => {
    if (current.finished.has(group.id)) return;
    const task = tasks[position];
    if (task !== undefined && current.index.task(task)) {
      for (const evidence of newEvidence(group, current.folded)) current.index.addEvidence(task, evidence);
    }
    if (position < latest) current.finished.add(group.id);
  });
  return where;
}

/**
 * The session teaching itself: a finished turn routed unsurely whose edits all landed in
 * another task's files now belongs to that task; one whose edits landed in its own task's
 * files (or, for a task it opened, in files no task had) is borne out. Either way its work
 * becomes evidence: the index is rebuilt from the groups (the new one is returned), and the
 * new ledger is written with the next flush.
 */
function settle(deps: RoutingDeps, session: StoredSession, groups: readonly InteractionGroup[], latest: number): RoutingIndex | undefined {
  const { threshold } = deps;
  // Only a turn that just ended can be settled, and most cannot: the walk over the whole history is skipped then.
  const { ledger: current } = session.state;
  const finished = session.live.routing?.finished;
  const end = Math.min(latest, groups.length);
  let settles = false;
  for (let position = 0; position < end && !settles; position += 1) {
    const group = groups[position];
    settles = group !== undefined && !finished?.has(group.id) && maySettle({ group, ledger: current, threshold });
  }
  if (!settles) return undefined;
  // A request a user's move left where it was is never relabelled by its edits (see SessionState.held).
  const held = new Set((session.state.held ?? []).map((hold) => hold.messageID));
  const settlements = settlementsOf({ groups, ledger: current, threshold, finishedBefore: latest }).filter(
    (settlement) => settlement.kind !== "relabel" || !held.has(settlement.messageID),
  );
  if (settlements.length === 0) return undefined;
  let ledger = current;
  for (const { messageID, kind, task, files } of settlements) {
    const from = ledger.decisions[messageID]?.task;
    ledger = kind === "relabel" ? relabelRequest(ledger, messageID, { task, files }) : confirmRequest(ledger, messageID, files);
    const what =
      kind === "relabel"
        ? `relabelled a request from ${from ?? "?"} to ${task}: its edits (${files.join(", ")}) are all in ${task}'s files`
        : `its edits (${files.join(", ")}) bore out an unsure decision for ${task}`;
    void deps.logger.log("info", what, { sessionID: groups[0]?.sessionID, messageID });
  }
  deps.store.stage(session, { ...session.state, ledger });
  const rebuilt = emptyIndex(ledger, threshold, session.state.resumed);
  session.live.routing = rebuilt;
  return rebuilt;
}

/** A request sent while off: kept (id and text) to be routed once the user switches it on again. */
async function noteWhileOff(deps: RoutingDeps, session: StoredSession, messageID: string, text: string): Promise<void> {
  const waiting = session.state.whileOff ?? [];
  if (session.state.ledger.decisions[messageID] || waiting.some((request) => request.messageID === messageID)) return;
  await deps.store.commit(session, { ...session.state, whileOff: [...waiting, { messageID, text }] });
}

/** Back on: the requests sent while off are routed first, in order, as if it had been on (their work folds in with the next call's groups). */
async function routeWhileOff(deps: RoutingDeps, session: StoredSession, indexed: RoutingIndex): Promise<void> {
  const { threshold } = deps;
  const waiting = session.state.whileOff ?? [];
  if (waiting.length === 0) return;
  let { ledger } = session.state;
  for (const request of waiting) {
    const routed = await routeRequest({
      router: deps.router,
      ledger,
      index: (session.live.routing ?? indexed).index,
      messageID: request.messageID,
      text: request.text,
      sessionID: session.sessionID,
      threshold,
    });
    ledger = routed.ledger;
    await deps.logger.log(
      "info",
      `routed a request sent while off to ${routed.task.id} "${routed.task.title}" confidence ${routed.entry.confidence}: ${routed.entry.reason}`,
      {
        sessionID: session.sessionID,
        messageID: request.messageID,
      },
    );
  }
  const { whileOff: _routed, ...rest } = session.state;
  await deps.store.commit(session, { ...rest, ledger });
}

/** Inside a store step: routes a user request (`SessionRouting.route`). */
async function routeInStep(deps: RoutingDeps, session: StoredSession, messageID: string, text: string): Promise<Routed | undefined> {
  const { threshold } = deps;
  const { sessionID } = session;
  if (session.subagent) return undefined;
  if (session.state.off) {
    await noteWhileOff(deps, session, messageID, text);
    return undefined;
  }
  // Other processes of the project see the session in use before anything else is decided.
  await deps.resume
    ?.inUse(sessionID)
    .catch((error: unknown) => deps.logger.log("warn", `could not note the session in use: ${messageOf(error)}`, { sessionID }));
  const indexed = await indexOf(deps, session);
  await routeWhileOff(deps, session, indexed);
  // A new request ends the turn before it: what that turn edited may settle its decision now, before this one is routed.
  if (!session.state.ledger.decisions[messageID]) {
    const unrouted = indexed.seen.findIndex((group) => group.kind === "request" && !session.state.ledger.decisions[group.id]);
    fold(deps, session, indexed, indexed.seen, unrouted === -1 ? indexed.seen.length : unrouted);
  }
  const { index } = session.live.routing ?? indexed;
  // The task of the request routed before this one (for a replayed request, before it).
  const { order, decisions } = session.state.ledger;
  const position = order.indexOf(messageID);
  const previous = decisions[order[(position === -1 ? order.length : position) - 1] ?? ""]?.task;
  // Where the session's own tasks do not surely have it, the request may resume an earlier session's task.
  let considered: Considered;
  const resume = deps.resume
    ? async (decision: RoutingDecision, signals: Signals) => {
        // A failure to look at earlier sessions (their files, the marks' lock) leaves the request to this session's routing.
        considered = await deps.resume?.consider({ session, messageID, text, signals, decision, index }).catch(async (error: unknown) => {
          await deps.logger.log("warn", `could not consider earlier sessions' tasks: ${messageOf(error)}`, { sessionID, messageID });
          return undefined;
        });
        const resumption = considered?.kind === "resumed" ? considered.resumption : undefined;
        return resumption?.entry ? { ledger: resumption.ledger, entry: resumption.entry, task: resumption.task } : undefined;
      }
    : undefined;
  const routed = await routeRequest({ router: deps.router, ledger: session.state.ledger, index, messageID, text, sessionID, threshold, resume });
  let { ledger } = routed;
  if (routed.ledger !== session.state.ledger) {
    const resumption = considered?.kind === "resumed" ? considered.resumption : undefined;
    // What the task showed in its earlier session is its evidence here too.
    if (resumption) for (const evidence of resumption.carried.evidence) index.addEvidence(resumption.task.id, indexedEvidence(evidence));
    const { entry, task } = routed;
    // A reply carrying on surely in the task the request before it was guessed to bears that one out, before this turn's calls.
    const before = order[(position === -1 ? order.length : position) - 1];
    const borneOut = before === undefined ? undefined : carriedOnBy({ ledger, unsureID: before, next: entry, text, groups: indexed.seen, index, threshold });
    if (borneOut) ledger = borneOut;
    const { resumeOffer: _previous, ...state } = session.state;
    await deps.store.commit(session, {
      ...state,
      ledger,
      ...(resumption ? { resumed: { ...state.resumed, [resumption.task.id]: resumption.carried } } : {}),
      ...(considered?.kind === "offered" ? { resumeOffer: considered.offer } : {}),
    });
    await deps.logger.log("info", `routed to ${task.id}${entry.opened ? " (new)" : ""} "${task.title}" confidence ${entry.confidence}: ${entry.reason}`, {
      sessionID,
      messageID,
      ...(entry.aux ? { aux: entry.aux } : {}),
    });
    if (borneOut && before !== undefined) {
      await deps.logger.log("info", `the next request carried on surely in ${task.id}: bore out an unsure decision for ${task.id}`, {
        sessionID,
        messageID: before,
      });
      // What counts as evidence changed: the index is built again from the ledger and the history seen so far.
      const rebuilt = emptyIndex(ledger, threshold, session.state.resumed);
      session.live.routing = rebuilt;
      fold(deps, session, rebuilt, indexed.seen, indexed.seen.length);
    }
  }
  return { entry: routed.entry, task: routed.task, previous, ledger, ...(considered?.kind === "offered" ? { offer: considered.offer } : {}) };
}

/** Inside a store step: the model recalled a task's history (`SessionRouting.recalled`). */
async function recalled(
  deps: RoutingDeps,
  session: StoredSession,
  messageID: string,
  recall: { task: string; exchanges: number },
): Promise<LedgerEntry | undefined> {
  const { threshold } = deps;
  const before = session.state.ledger.decisions[messageID];
  if (session.subagent || !before) return undefined;
  const ledger = noteRecall(session.state.ledger, messageID, recall, threshold);
  await deps.store.commit(session, { ...session.state, ledger });
  const after = ledger.decisions[messageID];
  if (after && (after.task !== before.task || isSettled(after, threshold) !== isSettled(before, threshold))) {
    // What counts as evidence changed: the next step builds the index again from the ledger and the whole history.
    session.live.routing = undefined;
    await deps.logger.log(
      "info",
      `the model recalled ${recall.task}'s history: the unsure request is ${isSettled(after, threshold) ? `now settled in ${after.task}` : "unsure again"}`,
      {
        sessionID: session.sessionID,
        messageID,
      },
    );
  }
  return after;
}

/** What routing needs: the store it keeps decisions in, the router, the host's history. */
interface RoutingDeps {
  store: SessionStore;
  router: Router;
  source: SessionSource;
  logger: Logger;
  /** The plug-in's confidence threshold: only a request routed below it is relabelled by its edits. */
  threshold: number;
  /** After a move: the memory writes the dropped records again. */
  onMoved?: ((sessionID: string) => void) | undefined;
  /** Earlier sessions' unfinished tasks (with memory: a resumed task brings its record). */
  resume?: SessionResume | undefined;
}

/**
 * Routes each session's requests with a task index kept on its live object (live-session.ts).
 * After a restart (or once the session left memory), the index is rebuilt from the stored
 * history at the session's next step, so routing resumes where it left off.
 */
export function createSessionRouting(deps: RoutingDeps): SessionRouting {
  return {
    route: (sessionID, messageID, text) => deps.store.step(sessionID, (session) => routeInStep(deps, session, messageID, text)),
    async learn(session, groups) {
      if (session.subagent) return undefined;
      return fold(deps, session, await indexOf(deps, session), groups);
    },
    applyMove: (session, move) => applyMove(deps, session, move),
    recalled: (session, messageID, recall) => recalled(deps, session, messageID, recall),
  };
}

/**
 * The ledger with the unsure request `unsureID` borne out by the request just routed (`next`),
 * or undefined: see `carriesOn`. The unsure turn's files are what its finished calls touched.
 */
function carriedOnBy(options: {
  ledger: Ledger;
  unsureID: string;
  next: LedgerEntry;
  text: string;
  groups: readonly InteractionGroup[];
  index: TaskIndex;
  threshold: number;
}): Ledger | undefined {
  const { ledger, unsureID, next, text, groups, index, threshold } = options;
  const previous = ledger.decisions[unsureID];
  const group = groups.find((candidate) => candidate.kind === "request" && candidate.id === unsureID);
  if (!previous || !group) return undefined;
  const previousFiles = [...editedPaths(group), ...readPaths(group)];
  const ownersOf = (path: string) => index.tasksWithFile(path).map((task) => task.id);
  return carriesOn({ previous, next, nextText: text, nextSignals: extractSignals(text), previousFiles, ownersOf, threshold })
    ? carriedOnRequest(ledger, unsureID)
    : undefined;
}

/**
 * A task index that knows the ledger's tasks and the task it is surely on, and of this session's
 * history nothing yet: only what tasks resumed from earlier sessions showed there.
 */
function emptyIndex(ledger: Ledger, threshold: number, resumed: SessionState["resumed"]): RoutingIndex {
  const index = new TaskIndex();
  const settled = settledTasks(ledger, threshold);
  for (const task of ledger.tasks) {
    index.addTask(task.id, task.title, { settled: settled.has(task.id) });
    for (const evidence of resumed?.[task.id]?.evidence ?? []) index.addEvidence(task.id, indexedEvidence(evidence));
  }
  index.current = settledCurrentTask(ledger, threshold);
  return { index, folded: { requests: new Set(), toolCalls: new Set() }, finished: new Set(), seen: [] };
}
