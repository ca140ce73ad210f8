import { isCommonWord } from "./common-words.js";
import { basename, contentWords, parentDirectory, type Signals } from "./signals.js";
import { samePath, type TaskIndex, type TaskProfile } from "./task-index.js";

/**
 * What the router knows about one candidate task, as numbers: the features of the fitted
 * model (`router-parameters.ts`). Names are the keys of the fitted weights.
 */
export const TASK_FEATURES = [
  "fileEvidence",
  "directoryEvidence",
  "symbolEvidence",
  "wordEvidence",
  "coverage",
  "evidenceShare",
  "current",
  "currentFollowUp",
  "currentBare",
  "previous",
  "workspace",
  "explicit",
  "backReference",
  "backReferenceLead",
  "titleOverlap",
] as const;

/** What speaks for the request opening a new task. */
export const NEW_TASK_FEATURES = [
  "bias",
  "newTaskCue",
  "opensLikeIssue",
  "novelty",
  "followUp",
  "unseenCheckout",
  "unseenPaths",
  "contentWords",
  "unknownReference",
  "unknownLabel",
  "bestCoverage",
  "bestEvidence",
  "bestWorkspace",
  "bestExplicit",
] as const;

/** What speaks for an instruction meant for every task ("for all of these: no new dependencies"). */
export const SHARED_FEATURES = [
  "bias",
  "sharedCue",
  "scopeCue",
  "timeScope",
  "ruleCue",
  "reminderCue",
  "codeItems",
  "contentWords",
  "followUp",
  "bestEvidence",
  "bestExplicit",
] as const;

export type TaskFeature = (typeof TASK_FEATURES)[number];
export type NewTaskFeature = (typeof NEW_TASK_FEATURES)[number];
export type SharedFeature = (typeof SHARED_FEATURES)[number];

/** One existing task as a candidate, with its feature values in `TASK_FEATURES` order. */
export interface TaskCandidate {
  task: TaskProfile;
  values: number[];
  /** Raw evidence from the request's files, symbols and words (for reasons and safety rules). */
  evidence: { files: number; symbols: number; words: number; total: number };
  workspace: boolean;
  explicit: boolean;
  /** Named by its title (quoted or written out) or an issue number only it carries: as decisive as its id. */
  titled: boolean;
  backReference: boolean;
}

/** Facts the safety rules and the decision's reason read. */
export interface RequestFacts {
  followUp: boolean;
  /** Written like the start of an issue report (a full sentence of some length, or a traceback). */
  opensLikeIssue: boolean;
  newTaskCue: boolean;
  /** The request says nothing of its own: no unseen word, path or symbol beyond a couple. */
  bare: boolean;
  /** Paths no task has touched (by file name). */
  unseenPaths: number;
  /** Of those, paths that are no test's (`tests/`, `test_x.py`, `x_test.go`, `x.spec.ts`): what a new piece of work would create. */
  unseenSourcePaths: number;
  /** Distinct content words no task has used. */
  unseenWords: number;
  novelty: number;
  /** A named checkout beside the ones other tasks work in, which no task has used. */
  unseenCheckout: string | undefined;
  /** A task label, id or ordinal that names no task so far ("Task C", `t7`). */
  unknownReference: string | undefined;
  /** Names a thing after "the", "our" or "my" in words no task has used ("the weather adapter"): a subject of its own. */
  newSubject: boolean;
  /** Compound code names (CamelCase, snake_case) no task has used. */
  unseenCodeNames: number;
}

export interface RoutingFeatures {
  tasks: TaskCandidate[];
  /** The new-task candidate's values in `NEW_TASK_FEATURES` order. */
  fresh: number[];
  /** The shared-instruction candidate's values in `SHARED_FEATURES` order. */
  shared: number[];
  facts: RequestFacts;
}

// The one hand-set scale left: a word anyone writes (everyday or developers' English) counts at this share.
const GENERIC_SHARE = 0.4;

/**
 * Reads everything the router weighs for one request against the session's tasks. Pure:
 * the same request and index give the same numbers. Sums of evidence enter as log(1 + x),
 * so that a long request does not outweigh a precise one.
 */
export function routingFeatures(options: { text: string; signals: Signals; index: TaskIndex }): RoutingFeatures {
  const { text, signals, index } = options;
  const tasks = index.tasks();
  const owners = new Map(signals.paths.map((path) => [path, index.tasksWithFile(path)] as const));
  const raw = tasks.map((task) => evidenceOf(task, signals, index, owners));
  const totalEvidence = raw.reduce((sum, entry) => sum + entry.total, 0);
  const followUp = readsAsFollowUp(text, signals);
  const novel = novelty(signals, index);
  const words = new Set(signals.words).size;
  const unseenPaths = signals.paths.filter((path) => !index.knowsFileNamed(basename(path))).length;
  const unseenWords = unseenWordCount(signals, index);
  const issueLike = opensLikeIssue(text, signals);
  const bare = unseenWords <= 1 && unseenPaths === 0 && signals.symbols.every((symbol) => index.symbolTaskCount(symbol) > 0);
  const place = workspaceMatch(signals, index);
  const explicit = explicitReferences(text, signals, index);
  const back = signals.backReference ? backReferenceHits(signals.backReference, tasks) : new Map<TaskProfile, number>();
  const previous = mostRecent(tasks.filter((task) => task.id !== index.current));
  const [topHits = 0, secondHits = 0] = [...back.values()].sort((a, b) => b - a);
  const requestWords = new Set(contentWords(text));

  const candidates: TaskCandidate[] = tasks.map((task, position) => {
    const evidence = raw[position] as Evidence;
    const current = task.id === index.current ? 1 : 0;
    const inWorkspace = place.owners.includes(task);
    const named = explicit.tasks.includes(task);
    const backHits = back.get(task) ?? 0;
    const values: Record<TaskFeature, number> = {
      fileEvidence: Math.log1p(evidence.files),
      directoryEvidence: Math.log1p(evidence.directories),
      symbolEvidence: Math.log1p(evidence.symbols),
      wordEvidence: Math.log1p(evidence.words),
      coverage: evidence.coverage,
      evidenceShare: totalEvidence === 0 ? 0 : evidence.total / totalEvidence,
      current,
      currentFollowUp: current && followUp ? 1 : 0,
      currentBare: current && bare ? 1 : 0,
      previous: task === previous ? 1 : 0,
      workspace: inWorkspace ? 1 / place.owners.length : 0,
      explicit: named ? 1 / explicit.tasks.length : 0,
      backReference: backHits,
      // What sets the task apart: "the compaction fix" names the task titled so, not one that said it once.
      backReferenceLead: backHits > 0 && backHits === topHits ? backHits - secondHits : 0,
      titleOverlap: titleOverlap(task, requestWords),
    };
    return {
      task,
      values: TASK_FEATURES.map((name) => values[name]),
      evidence: { files: evidence.files, symbols: evidence.symbols, words: evidence.words, total: evidence.total },
      workspace: inWorkspace,
      explicit: named,
      titled: explicit.titled.includes(task),
      backReference: backHits > 0,
    };
  });

  const best = (feature: TaskFeature) => Math.max(0, ...candidates.map((candidate) => candidate.values[TASK_FEATURES.indexOf(feature)] ?? 0));
  const unseenCheckout = place.unseenCheckout;
  const fresh: Record<NewTaskFeature, number> = {
    bias: 1,
    newTaskCue: signals.newTaskCue ? 1 : 0,
    opensLikeIssue: issueLike ? 1 : 0,
    novelty: novel,
    followUp: followUp ? 1 : 0,
    unseenCheckout: unseenCheckout === undefined ? 0 : 1,
    unseenPaths: Math.log1p(unseenPaths),
    contentWords: Math.log1p(words),
    unknownReference: explicit.unknown === undefined ? 0 : 1,
    // A name the user gives ("Task B") that no task has: users name what they start.
    unknownLabel: explicit.unknownLabel ? 1 : 0,
    bestCoverage: best("coverage"),
    bestEvidence: Math.log1p(Math.max(0, ...raw.map((entry) => entry.total))),
    bestWorkspace: best("workspace"),
    bestExplicit: best("explicit"),
  };
  const shared: Record<SharedFeature, number> = {
    bias: 1,
    sharedCue: signals.sharedCue ? 1 : 0,
    scopeCue: signals.scopeCue ? 1 : 0,
    timeScope: signals.timeScope ? 1 : 0,
    ruleCue: signals.ruleCue ? 1 : 0,
    reminderCue: signals.reminderCue ? 1 : 0,
    codeItems: Math.log1p(signals.paths.length + signals.symbols.length),
    contentWords: fresh.contentWords,
    followUp: fresh.followUp,
    bestEvidence: fresh.bestEvidence,
    bestExplicit: Math.max(fresh.bestExplicit, fresh.bestWorkspace),
  };
  return {
    tasks: candidates,
    fresh: NEW_TASK_FEATURES.map((name) => fresh[name]),
    shared: SHARED_FEATURES.map((name) => shared[name]),
    facts: {
      followUp,
      opensLikeIssue: issueLike,
      newTaskCue: signals.newTaskCue,
      bare,
      unseenPaths,
      unseenSourcePaths: signals.paths.filter((path) => !index.knowsFileNamed(basename(path)) && !isTestPath(path)).length,
      unseenWords,
      novelty: novel,
      unseenCheckout,
      unknownReference: explicit.unknown,
      unseenCodeNames: signals.symbols.filter((symbol) => isCompound(symbol) && index.symbolTaskCount(symbol) === 0).length,
      newSubject: signals.definiteThings.some((thing) => thing.split(" ").some((word) => index.wordTaskCount(word) === 0)),
    },
  };
}

interface Evidence {
  files: number;
  directories: number;
  symbols: number;
  words: number;
  total: number;
  coverage: number;
}

/** Overlap of the request with one task, each item weighted by how exclusive it is to the task. */
function evidenceOf(task: TaskProfile, signals: Signals, index: TaskIndex, fileOwners: ReadonlyMap<string, readonly TaskProfile[]>): Evidence {
  let files = 0;
  let directories = 0;
  let seen = 0;
  for (const path of signals.paths) {
    const owners = fileOwners.get(path) ?? [];
    if (owners.includes(task)) {
      files += 1 / owners.length;
      seen += 1;
    } else if (owners.length === 0 && sharesDirectory(task, path)) directories += 1;
  }
  let symbols = 0;
  for (const symbol of signals.symbols) {
    if (!task.symbols.has(symbol)) continue;
    seen += 1;
    symbols += (isCompound(symbol) ? 1 : 0.5) / Math.max(1, index.symbolTaskCount(symbol));
  }
  let words = 0;
  const unique = new Set(signals.words);
  for (const word of unique) {
    if (!task.words.has(word) && !task.titleWords.has(word) && !task.symbols.has(word)) continue;
    seen += 1;
    // A code span like `page` is a symbol and a word: count its evidence once.
    if (signals.symbols.includes(word) && task.symbols.has(word)) continue;
    words += (isCommonWord(word) ? GENERIC_SHARE : 1) / Math.max(1, index.wordTaskCount(word));
  }
  const size = unique.size + signals.paths.length + signals.symbols.length;
  return { files, directories, symbols, words, total: files + symbols + words, coverage: size === 0 ? 0 : Math.min(1, seen / size) };
}

/** A test's file, by the SWE-bench convention (a `test`, `tests`, `testing`, `spec` or `e2e` part) or its name (`test_x`, `x_test`, `x.spec`, `x.test`). */
function isTestPath(path: string): boolean {
  return (
    path.split("/").some((part) => /^(?:tests?|testing|spec|specs|e2e|__tests__)$/i.test(part)) || /(?:^test_|_test\.|\.(?:spec|test)\.)/i.test(basename(path))
  );
}

/** A compound identifier (`fetch_pages`, `Context.invoke`) names one thing; `page` in backticks is nearly a word. */
export function isCompound(symbol: string): boolean {
  return /[_.-]/.test(symbol) || symbol.length >= 10;
}

function sharesDirectory(task: TaskProfile, path: string): boolean {
  const directory = parentDirectory(path);
  if (directory === "") return false;
  for (const known of task.directories) if (samePath(known, directory)) return true;
  return false;
}

function mostRecent(tasks: readonly TaskProfile[]): TaskProfile | undefined {
  let latest: TaskProfile | undefined;
  for (const task of tasks) if (!latest || task.lastRequest > latest.lastRequest) latest = task;
  return latest;
}

function unseenWordCount(signals: Signals, index: TaskIndex): number {
  return new Set(signals.words.filter((word) => index.wordTaskCount(word) === 0)).size;
}

/** The tasks whose checkout the request names, and a named checkout no task has used yet. */
function workspaceMatch(signals: Signals, index: TaskIndex): { owners: TaskProfile[]; unseenCheckout: string | undefined } {
  const places = [...signals.workspaces, ...signals.paths.filter((path) => path.startsWith("/")).map(parentDirectory)];
  for (const directory of places) {
    const owners = index.tasksInWorkspace(directory);
    if (owners.length > 0) return { owners, unseenCheckout: undefined };
    if (signals.workspaces.includes(directory) && isSiblingCheckout(directory, index)) return { owners: [], unseenCheckout: directory };
  }
  return { owners: [], unseenCheckout: undefined };
}

/**
 * An unseen directory next to the checkouts other tasks work in (`ws4` beside `ws1`, `ws2`)
 * is a new task's checkout; any other unseen directory says nothing.
 */
function isSiblingCheckout(directory: string, index: TaskIndex): boolean {
  const parent = parentDirectory(directory);
  if (parent === "") return false;
  return index.tasks().some((task) => [...task.workspaces].some((workspace) => parentDirectory(workspace) === parent));
}

/**
 * Tasks the request names outright: by the id the plug-in shows (`t2`), its ordinal
 * ("task 2"), a label the user gave it ("Task B"), an issue number it carries, or its title
 * (quoted, or written out). A reference to a task that does not exist is kept as `unknown`.
 */
function explicitReferences(
  text: string,
  signals: Signals,
  index: TaskIndex,
): { tasks: TaskProfile[]; titled: TaskProfile[]; unknown: string | undefined; unknownLabel: boolean } {
  const tasks = index.tasks();
  const named = new Set<TaskProfile>();
  let unknown: string | undefined;
  let unknownLabel = false;
  for (const id of signals.taskIds) {
    const task = index.task(id);
    if (task) named.add(task);
    else unknown ??= id;
  }
  for (const ordinal of signals.taskOrdinals) {
    // "task 3" counts the user's tasks: the router's count agrees only while every task up to it is surely one.
    const counted = tasks.filter((candidate) => candidate.ordinal <= ordinal);
    const task = tasks.find((candidate) => candidate.ordinal === ordinal);
    if (task && counted.every((candidate) => candidate.settled)) named.add(task);
    else if (!task) unknown ??= `task ${ordinal}`;
  }
  for (const label of signals.taskLabels) {
    const task = tasks.find((candidate) => candidate.labels.has(label));
    if (task) named.add(task);
    else {
      unknown ??= `task ${label.toUpperCase()}`;
      unknownLabel = true;
    }
  }
  const titled: TaskProfile[] = [];
  const refs = new Set([...signals.issueRefs, ...signals.numbers]);
  if (refs.size > 0) {
    const owners = tasks.filter((task) => [...refs].some((ref) => task.issueRefs.has(ref)));
    if (owners.length === 1 && owners[0]) titled.push(owners[0]);
  }
  const byTitle = titleReferences(text, signals, tasks);
  if (byTitle.length === 1 && byTitle[0]) titled.push(byTitle[0]);
  for (const task of titled) named.add(task);
  const none = named.size === 0;
  return { tasks: [...named].sort((a, b) => a.ordinal - b.ordinal), titled, unknown: none ? unknown : undefined, unknownLabel: none && unknownLabel };
}

/** Tasks whose title the request quotes or writes out (titles of three words or more). */
function titleReferences(text: string, signals: Signals, tasks: readonly TaskProfile[]): TaskProfile[] {
  const body = normalise(text);
  const phrases = signals.quoted.map(normalise).filter((phrase) => phrase.split(" ").length >= 2);
  return tasks.filter((task) => {
    const title = normalise(task.title.replace(/…$/, ""));
    if (title.split(" ").length < 3) return false;
    if (body.includes(title)) return true;
    // A quoted title may be cut at a different length than the stored one: either may be the prefix.
    return phrases.some((phrase) => phrase.split(" ").length >= 3 && (title.includes(phrase) || phrase.startsWith(title)));
  });
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** How many of the back-reference phrase's words each task has ("back to the CSV export"); title words count double. */
function backReferenceHits(phrase: readonly string[], tasks: readonly TaskProfile[]): Map<TaskProfile, number> {
  const hits = new Map<TaskProfile, number>();
  if (phrase.length === 0) return hits;
  for (const task of tasks) {
    let score = 0;
    for (const word of phrase) {
      if (task.titleWords.has(word)) score += 2;
      else if (task.words.has(word) || task.symbols.has(word)) score += 1;
    }
    if (score > 0) hits.set(task, score / (2 * phrase.length));
  }
  return hits;
}

/** Share of a task's title words that the request repeats (titles of two content words or more). */
function titleOverlap(task: TaskProfile, requestWords: ReadonlySet<string>): number {
  if (task.titleWords.size < 2) return 0;
  let shared = 0;
  for (const word of task.titleWords) if (requestWords.has(word)) shared += 1;
  return shared / task.titleWords.size;
}

const FOLLOW_UP_START =
  /^\s*(?:and|also|now|then|ok|okay|same|so|but|still|hmm|wait|great|good|nice|thanks|perfect|yes|no|what about|how about|does|did|is|are|can you|could you|please|run|rerun|re-run|add|test|tests|it|that|this|those|these|the same|one more|another test|make it|let's|lets)\b(?![/.\w])/i;

/** Points at work already done: "now fails", "the new test", "your change", "still". */
const FOLLOW_UP_MARKER =
  /\b(?:now|still|again|anymore|the new (?:test|code|function|option|flag|check)|(?:your|that|the) (?:change|fix|patch)|you (?:added|wrote|made|changed))\b/i;

/** Short, or opening like a reply to what was just done ("now add a test", "run them"). */
function readsAsFollowUp(text: string, signals: Signals): boolean {
  const words = new Set(signals.words).size;
  if (words <= 5 && signals.paths.length === 0) return true;
  return readsAsReply(text, signals);
}

/** Opens like a reply to what was just done ("now add a test", "ok, and the docs", "still failing"), whatever its length. */
export function readsAsReply(text: string, signals: Signals): boolean {
  const words = new Set(signals.words).size;
  // "add a test" follows up; "Add wandb logging: ..." in a full sentence opens something.
  if (FOLLOW_UP_START.test(text) && (/^\s*[a-z]/.test(text) ? words <= 25 : words <= 8)) return true;
  return FOLLOW_UP_MARKER.test(text.split(/\s+/).slice(0, 8).join(" "));
}

/**
 * Written like the start of an issue: a full sentence (capitalised, or opening on a
 * reference or code) of some length, or a report with code or a traceback.
 */
function opensLikeIssue(text: string, signals: Signals): boolean {
  const size = new Set(signals.words).size + signals.paths.length + signals.symbols.length;
  if (/```|Traceback \(most recent|panicked at|Exception:/.test(text) && size >= 8) return true;
  if (/^\s*`/.test(text)) return size >= 12;
  return /^\s*(?:[A-Z#"']|\d|[\w.-]+\/[\w.-])/.test(text) && size >= 8;
}

/** Share of the request's paths, symbols and words that no task has seen (paths and symbols weigh double). */
function novelty(signals: Signals, index: TaskIndex): number {
  let total = 0;
  let unseen = 0;
  for (const word of new Set(signals.words)) {
    total += 1;
    if (index.wordTaskCount(word) === 0) unseen += 1;
  }
  for (const path of signals.paths) {
    total += 2;
    if (!index.knowsFileNamed(basename(path))) unseen += 2;
  }
  for (const symbol of signals.symbols) {
    total += 2;
    if (index.symbolTaskCount(symbol) === 0) unseen += 2;
  }
  return total === 0 ? 0 : unseen / total;
}
