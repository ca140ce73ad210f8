import { BACK_CUE, isHard, openingWords, RETURN_CUE } from "./anchor-rules.js";
import { anchorsOf, type TaskAnchor } from "./anchors.js";
import type { RoutingDecision } from "./decision.js";
import { routingFeatures } from "./routing-features.js";
import type { Signals } from "./signals.js";
import { type Evidence, TaskIndex } from "./task-index.js";

/** An unfinished task of an earlier session of the project, with what its session showed of it. */
export interface EarlierTask {
  /** `<session>/<task>`: unique across the project's sessions. */
  key: string;
  sessionID: string;
  taskId: string;
  title: string;
  sessionTitle: string | undefined;
  /** ISO time it was last worked on. */
  lastActive: string;
  /** Asks of its record not yet shown done. */
  pending: number;
  /** Its requests and what their work touched, oldest first. */
  evidence: readonly Evidence[];
}

/** The earlier tasks a session may resume, indexed as the router indexes a session's own tasks. */
export interface EarlierTasks {
  index: TaskIndex;
  byKey: ReadonlyMap<string, EarlierTask>;
}

export function indexEarlierTasks(tasks: readonly EarlierTask[]): EarlierTasks {
  const index = new TaskIndex();
  for (const task of tasks) {
    index.addTask(task.key, task.title, { settled: true });
    for (const evidence of task.evidence) index.addEvidence(task.key, evidence);
  }
  // None of them is what the session is on: a reply names none of them.
  index.current = undefined;
  return { index, byKey: new Map(tasks.map((task) => [task.key, task])) };
}

/**
 * `resume`: the request names exactly one earlier task by what only it has (its file, its code
 * name, its title, its own phrase, or its words after "back to ..."), and nothing of the
 * session's own tasks: its record comes along. `offer`: it points to one (or to several, the
 * likeliest offered) but not decisively: nothing comes along, the person is asked.
 */
export type ResumeVerdict = { kind: "resume" | "offer"; task: EarlierTask; why: string };

/** Resuming is asked only where the session's own routing is not sure the request belongs to one of its tasks (nor meant for every task). */
export function mayResume(decision: RoutingDecision, threshold: number): boolean {
  return !decision.shared && (decision.target.kind === "new" || decision.confidence < threshold);
}

/**
 * Whether a request resumes an earlier session's task. Asked only where the session's own
 * routing is not sure the request belongs to one of its tasks. Evidence the session's own
 * tasks share (a file, a code name, a word one of them used) names no earlier task: a wrong
 * resumption brings another task's requirements into the call, worse than none.
 */
export function resumeVerdict(options: { text: string; signals: Signals; earlier: EarlierTasks; current: TaskIndex }): ResumeVerdict | undefined {
  const { text, signals, earlier, current } = options;
  if (earlier.index.size === 0) return undefined;
  const features = routingFeatures({ text, signals, index: earlier.index });
  const anchors = anchorsOf({ text, signals, index: earlier.index, features });
  const own = anchors.strong.map((anchor) => apartFromSession(anchor, current)).filter((anchor) => anchor !== undefined);
  if (own.length === 0) return undefined;
  const ranked = [...own].sort((a, b) => Number(isHard(b)) - Number(isHard(a)) || b.termScore - a.termScore || a.task.id.localeCompare(b.task.id));
  const best = ranked[0] as TaskAnchor;
  const task = earlier.byKey.get(best.task.id);
  if (!task) return undefined;
  const returns = RETURN_CUE.test(text) || BACK_CUE.test(openingWords(text));
  const offer = (why: string): ResumeVerdict => ({ kind: "offer", task, why });
  if (ranked.length > 1) return offer(`names ${ranked.map((anchor) => anchor.task.id).join(" and ")}`);
  // "New task: ..." starts something, whatever file it shares with an old one.
  if (signals.explicitNewTask) return best.named ? offer(`says it starts something new, yet names ${described(best)}`) : undefined;
  const { facts } = features;
  // A fresh report about a task's file is that task's neighbour as often as its next step.
  const readsAsFresh = (facts.opensLikeIssue && !facts.followUp && !returns && best.identifiers.length === 0 && !best.named) || (facts.newTaskCue && !returns);
  if (readsAsFresh) return offer(`reads like a new report, yet uses ${described(best)}`);
  if (isHard(best) || best.ownNames > 0 || returns) return { kind: "resume", task, why: `names ${described(best)}` };
  return offer(`uses ${described(best)}`);
}

/** The anchor with only what the session's own tasks do not have; undefined when nothing of it is left. */
function apartFromSession(anchor: TaskAnchor, current: TaskIndex): TaskAnchor | undefined {
  const files = anchor.files.filter((path) => current.tasksWithFile(path).length === 0);
  const identifiers = anchor.identifiers.filter((symbol) => current.symbolTaskCount(symbol) === 0);
  const shared = anchor.terms.some((term) => current.wordTaskCount(term) > 0 || current.phraseTaskCount(term) > 0 || current.symbolTaskCount(term) > 0);
  const words = shared ? { terms: [], phrases: [], ownNames: 0, termScore: 0, keyed: false } : {};
  const left = { ...anchor, files, identifiers, ...words };
  return left.named || left.files.length > 0 || left.identifiers.length > 0 || left.keyed ? left : undefined;
}

function described(anchor: TaskAnchor): string {
  if (anchor.files.length > 0) return `its file ${anchor.files.join(", ")}`;
  if (anchor.identifiers.length > 0) return `its code name ${anchor.identifiers.join(", ")}`;
  if (anchor.named) return "its title or checkout";
  if (anchor.phrases.length > 0) return `its words "${anchor.phrases.join('", "')}"`;
  return `its words ${anchor.terms.map((term) => `"${term}"`).join(", ")}`;
}
