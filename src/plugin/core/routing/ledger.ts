import { z } from "zod";
import { AuxUsageSchema, type RoutingDecision } from "./decision.js";

/** Where a resumed task came from: an unfinished task of an earlier session of the project. */
const ResumedFromSchema = z.object({
  session: z.string().min(1),
  /** Its id there (kept here unless this session already had the id). */
  task: z.string().min(1),
  /** The earlier session's title as the plug-in last saw it. */
  sessionTitle: z.string().optional(),
  /** When it was last worked on there (ISO). */
  lastActive: z.string().min(1),
  /** Asks of its record not yet shown done when it was resumed. */
  pending: z.number().int().min(0),
  /** `router`: a request named it; `user`: `/rcm resume`. */
  by: z.enum(["router", "user"]),
  /** For `by: "user"`: how many requests the session had routed then (the task is current until the next one). */
  afterRequests: z.number().int().min(0).optional(),
});
export type ResumedFrom = z.infer<typeof ResumedFromSchema>;

const LedgerTaskSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  /** The user message that opened the task (for a task resumed by `/rcm resume`, `resume:<session>/<task>`). */
  openedBy: z.string().min(1),
  /** `/rcm split`: the task goes on in that OpenCode session; this one routes no more requests to it. */
  split: z.object({ session: z.string().min(1) }).optional(),
  /** A task of an earlier session taken up here: its record comes along (SessionState.resumed). */
  resumed: ResumedFromSchema.optional(),
});
export type LedgerTask = z.infer<typeof LedgerTaskSchema>;

/** A decision as stored: the task it resolved to, whatever the router proposed. */
export const LedgerEntrySchema = z.object({
  task: z.string().min(1),
  opened: z.boolean(),
  confidence: z.number().min(0).max(1),
  related: z.array(z.string()),
  shared: z.boolean(),
  reason: z.string(),
  /** `user`: set by `/rcm move`. */
  router: z.enum(["lexical", "model", "user"]),
  aux: AuxUsageSchema.optional(),
  /** The turn's edits showed the request belonged elsewhere: the task it was routed to, and the files that showed it. */
  relabelled: z
    .object({
      from: z.string().min(1),
      files: z.array(z.string()),
      /** What showed it, when not the edits: the model recalled that task's history. */ by: z.literal("recall").optional(),
    })
    .optional(),
  /** An unsure decision's candidate tasks (the decision's own task among them): what `fallback: "candidates"` keeps. */
  candidates: z.array(z.string().min(1)).optional(),
  /** An unsure decision's tasks that the request itself points to (a new task it opened among them): where its edits may settle it. */
  pointsTo: z.array(z.string().min(1)).optional(),
  /**
   * An unsure decision borne out: by the turn's edits (every file it edited was its task's own, or
   * no task's for a task it opened), or, `by: "next-request"`, by the next request carrying on
   * surely in the same task.
   */
  confirmed: z.object({ files: z.array(z.string()), by: z.literal("next-request").optional() }).optional(),
  /** The model fetched these tasks' hidden history (`rcm_recall`) while answering the request: one use each, in order. */
  recalled: z.array(z.object({ task: z.string().min(1), exchanges: z.number().int().min(0) })).optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/** A session's routing: its tasks in opening order and a decision per user message id. */
export const LedgerSchema = z.object({
  tasks: z.array(LedgerTaskSchema),
  decisions: z.record(z.string(), LedgerEntrySchema),
  /** User message ids in the order they were routed. */
  order: z.array(z.string()),
});
export type Ledger = z.infer<typeof LedgerSchema>;

export function emptyLedger(): Ledger {
  return { tasks: [], decisions: {}, order: [] };
}

/**
 * Records a decision for a user message and returns the new ledger and the task it
 * resolved to (a new task gets the next id, `t1`, `t2`...). A message routed twice keeps
 * its first decision, so replays never move history between tasks.
 */
export function recordDecision(ledger: Ledger, messageID: string, decision: RoutingDecision): { ledger: Ledger; entry: LedgerEntry; task: LedgerTask } {
  const known = ledger.decisions[messageID];
  if (known) return { ledger, entry: known, task: taskOf(ledger, known.task) };
  let task: LedgerTask;
  let tasks = ledger.tasks;
  if (decision.target.kind === "new") {
    task = { id: nextTaskID(ledger), title: decision.target.title, openedBy: messageID };
    tasks = [...tasks, task];
  } else {
    task = taskOf(ledger, decision.target.task);
  }
  const entry: LedgerEntry = {
    task: task.id,
    opened: decision.target.kind === "new",
    confidence: decision.confidence,
    related: decision.related.filter((id) => id !== task.id && tasks.some((known) => known.id === id)),
    shared: decision.shared,
    reason: decision.reason,
    router: decision.router,
    ...(decision.aux ? { aux: decision.aux } : {}),
    ...(decision.candidates
      ? { candidates: [...new Set([task.id, ...decision.candidates])].filter((id) => tasks.some((known) => known.id === id)).sort(taskOrder) }
      : {}),
    ...(decision.pointsTo
      ? {
          pointsTo: [...new Set([...(decision.target.kind === "new" ? [task.id] : []), ...decision.pointsTo])]
            .filter((id) => tasks.some((known) => known.id === id))
            .sort(taskOrder),
        }
      : {}),
  };
  return {
    ledger: { tasks, decisions: { ...ledger.decisions, [messageID]: entry }, order: [...ledger.order, messageID] },
    entry,
    task,
  };
}

/**
 * The user's correction (`/rcm move`): the requests (one, several, or one and every later
 * one) now belong to `target`, an existing task or a new one opened by the first of them, with
 * full confidence and reason "user": sure evidence for their new task. Their places in the
 * order stay. A task left without requests stays in the list, so task ids never change meaning.
 */
export function moveRequests(
  ledger: Ledger,
  messageIDs: readonly string[],
  target: { kind: "task"; task: string } | { kind: "new"; title: string },
): { ledger: Ledger; entry: LedgerEntry; task: LedgerTask } {
  const moving = ledger.order.filter((id) => messageIDs.includes(id));
  for (const id of messageIDs) if (!ledger.decisions[id]) throw new Error(`request ${id} was never routed`);
  const first = moving[0];
  if (first === undefined) throw new Error("no request to move");
  const task = target.kind === "new" ? { id: nextTaskID(ledger), title: target.title, openedBy: first } : taskOf(ledger, target.task);
  const tasks = target.kind === "new" ? [...ledger.tasks, task] : ledger.tasks;
  const decisions = { ...ledger.decisions };
  for (const id of moving) {
    decisions[id] = { task: task.id, opened: target.kind === "new" && id === first, confidence: 1, related: [], shared: false, reason: "user", router: "user" };
  }
  return { ledger: { ...ledger, tasks, decisions }, entry: decisions[first] as LedgerEntry, task };
}

/** One request's move (see moveRequests). */
export function moveRequest(
  ledger: Ledger,
  messageID: string,
  target: { kind: "task"; task: string } | { kind: "new"; title: string },
): { ledger: Ledger; entry: LedgerEntry; task: LedgerTask } {
  return moveRequests(ledger, [messageID], target);
}

/**
 * The session teaching itself: a finished request whose edits all landed in another task's
 * files now belongs to that task, for later routing and memory. The decision as made stays
 * readable (`relabelled.from`, and the reason says why); a task it opened keeps its id.
 */
export function relabelRequest(ledger: Ledger, messageID: string, options: { task: string; files: readonly string[] }): Ledger {
  const entry = ledger.decisions[messageID];
  if (!entry) throw new Error(`request ${messageID} was never routed`);
  const task = taskOf(ledger, options.task);
  const files = [...options.files];
  const relabelled: LedgerEntry = {
    ...entry,
    task: task.id,
    opened: false,
    reason: `${entry.reason}; then its edits (${files.join(", ")}) showed it belongs to ${task.id}`,
    relabelled: { from: entry.task, files },
  };
  return { ...ledger, decisions: { ...ledger.decisions, [messageID]: relabelled } };
}

/** An unsure decision the turn's edits bore out: it now counts as evidence for its task. */
export function confirmRequest(ledger: Ledger, messageID: string, files: readonly string[]): Ledger {
  const entry = ledger.decisions[messageID];
  if (!entry) throw new Error(`request ${messageID} was never routed`);
  const confirmed: LedgerEntry = { ...entry, reason: `${entry.reason}; then its edits (${files.join(", ")}) bore it out`, confirmed: { files: [...files] } };
  return { ...ledger, decisions: { ...ledger.decisions, [messageID]: confirmed } };
}

/** An unsure decision that the next request bore out: it carried on with the same task surely, without a correction. */
export function carriedOnRequest(ledger: Ledger, messageID: string): Ledger {
  const entry = ledger.decisions[messageID];
  if (!entry) throw new Error(`request ${messageID} was never routed`);
  const confirmed: LedgerEntry = {
    ...entry,
    reason: `${entry.reason}; then the next request carried on with ${entry.task} surely`,
    confirmed: { files: [], by: "next-request" },
  };
  return { ...ledger, decisions: { ...ledger.decisions, [messageID]: confirmed } };
}

/**
 * The model recalled a task's hidden history (`rcm_recall`) while answering the request: noted
 * on its decision. An unsure guess becomes settled evidence for the one other task the model
 * needed and got (some exchanges were hidden): relabelled there (a request that opened its task
 * stays, as with edits: it may be that task's neighbour). A recall of a second task makes it
 * unsure again (see isSettled).
 */
export function noteRecall(ledger: Ledger, messageID: string, recall: { task: string; exchanges: number }, threshold: number): Ledger {
  const entry = ledger.decisions[messageID];
  if (!entry) throw new Error(`request ${messageID} was never routed`);
  const task = taskOf(ledger, recall.task);
  const noted: LedgerEntry = { ...entry, recalled: [...(entry.recalled ?? []), { task: task.id, exchanges: recall.exchanges }] };
  const others = recalledOthers(noted);
  let decided = noted;
  if (recall.exchanges > 0 && !entry.shared && !entry.opened && !isSettled(entry, threshold) && task.id !== entry.task && others.length === 1) {
    decided = {
      ...noted,
      task: task.id,
      reason: `${entry.reason}; then the model recalled ${task.id}'s history`,
      relabelled: { from: entry.task, files: [], by: "recall" },
    };
  } else if (entry.relabelled?.by === "recall" && others.length === 2 && recalledOthers(entry).length === 1) {
    decided = { ...noted, reason: `${entry.reason}; then ${task.id}'s too, so it is unsure again` };
  }
  return { ...ledger, decisions: { ...ledger.decisions, [messageID]: decided } };
}

/** The tasks other than the one a request was routed to whose history the model recalled for it, each once. */
function recalledOthers(entry: LedgerEntry): string[] {
  const routedTo = entry.relabelled?.from ?? entry.task;
  return [...new Set((entry.recalled ?? []).map((recall) => recall.task))].filter((task) => task !== routedTo);
}

/** `/rcm split`: the task goes on in `sessionID`; its requests stay where they are. Throws for a task the ledger does not have. */
export function markSplit(ledger: Ledger, task: string, sessionID: string): Ledger {
  taskOf(ledger, task);
  return { ...ledger, tasks: ledger.tasks.map((known) => (known.id === task ? { ...known, split: { session: sessionID } } : known)) };
}

function taskOf(ledger: Ledger, id: string): LedgerTask {
  const task = ledger.tasks.find((candidate) => candidate.id === id);
  if (!task) throw new Error(`decision names unknown task ${id}`);
  return task;
}

/** t2 before t10. */
function taskOrder(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1)) || a.localeCompare(b);
}

/** The next free id: `t<count + 1>`, or the next number up where a resumed task holds it. */
function nextTaskID(ledger: Ledger): string {
  const taken = new Set(ledger.tasks.map((task) => task.id));
  let number = ledger.tasks.length + 1;
  while (taken.has(`t${number}`)) number += 1;
  return `t${number}`;
}

/**
 * An earlier session's task taken up in this one, keeping its id where this session does not
 * have it yet. With `messageID`, the request that named it resumes it (a sure decision, which
 * opens the task here); without, the user resumed it (`/rcm resume`) and it is current until
 * the next request is routed.
 */
export function resumeTask(
  ledger: Ledger,
  options: { from: ResumedFrom; title: string; messageID?: string | undefined; confidence: number; reason: string },
): { ledger: Ledger; task: LedgerTask; entry?: LedgerEntry } {
  const { from, title, messageID } = options;
  const known = messageID === undefined ? undefined : ledger.decisions[messageID];
  if (known) return { ledger, entry: known, task: taskOf(ledger, known.task) };
  const id = ledger.tasks.some((task) => task.id === from.task) ? nextTaskID(ledger) : from.task;
  const task: LedgerTask = {
    id,
    title,
    openedBy: messageID ?? `resume:${from.session}/${from.task}`,
    resumed: messageID === undefined ? { ...from, afterRequests: ledger.order.length } : from,
  };
  const tasks = [...ledger.tasks, task];
  if (messageID === undefined) return { ledger: { ...ledger, tasks }, task };
  const entry: LedgerEntry = { task: id, opened: true, confidence: options.confidence, related: [], shared: false, reason: options.reason, router: "lexical" };
  return { ledger: { tasks, decisions: { ...ledger.decisions, [messageID]: entry }, order: [...ledger.order, messageID] }, task, entry };
}

/** The request routed last (the latest in the ledger's order) and its decision; undefined before the first. */
export function lastRouted(ledger: Ledger): { messageID: string; entry: LedgerEntry } | undefined {
  const messageID = ledger.order.at(-1);
  const entry = messageID === undefined ? undefined : ledger.decisions[messageID];
  return messageID === undefined || entry === undefined ? undefined : { messageID, entry };
}

/** The current task: the one the last routed request went to. */
export function currentTask(ledger: Ledger): string | undefined {
  return lastRouted(ledger)?.entry.task;
}

/** A decision sure enough to leave other tasks' history out (and to be remembered under its task); below it, the full history. */
export function isConfident(entry: Pick<LedgerEntry, "confidence">, threshold: number): boolean {
  return entry.confidence >= threshold;
}

/**
 * Whether a decision is evidence for later routing: sure, the user's word, or an unsure
 * guess that the turn's edits settled (relabelled or confirmed). An unsure guess alone is
 * never evidence: its files and words anchor nothing, so one guess cannot make the next sure.
 */
export function isSettled(entry: LedgerEntry, threshold: number): boolean {
  // A recall settles only while the model needed that one other task alone.
  const relabelled = entry.relabelled !== undefined && (entry.relabelled.by !== "recall" || recalledOthers(entry).length === 1);
  return entry.router === "user" || relabelled || entry.confirmed !== undefined || isConfident(entry, threshold);
}

/**
 * The task the session is surely on: the last routed request's (a rule meant for every task
 * changes nothing), if that decision is settled; after an unsure one, none.
 */
export function settledCurrentTask(ledger: Ledger, threshold: number): string | undefined {
  // A task the user resumed since the last request is what the next one carries on.
  const resumed = ledger.tasks.findLast((task) => task.resumed?.afterRequests === ledger.order.length);
  if (resumed) return resumed.id;
  for (let position = ledger.order.length - 1; position >= 0; position -= 1) {
    const entry = ledger.decisions[ledger.order[position] ?? ""];
    if (!entry || entry.shared) continue;
    return isSettled(entry, threshold) ? entry.task : undefined;
  }
  return undefined;
}

/** The tasks with a settled request: until a task has one, nothing about it is evidence (its title included). */
export function settledTasks(ledger: Ledger, threshold: number): Set<string> {
  // A resumed task is real: it was settled in its session.
  const resumed = ledger.tasks.flatMap((task) => (task.resumed ? [task.id] : []));
  return new Set([...resumed, ...Object.values(ledger.decisions).flatMap((entry) => (!entry.shared && isSettled(entry, threshold) ? [entry.task] : []))]);
}
