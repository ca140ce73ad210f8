import { isCommonWord, isDeveloperWord } from "./common-words.js";
import { phrasesOf } from "./phrases.js";
import { isCompound, type RoutingFeatures, type TaskCandidate } from "./routing-features.js";
import type { Signals } from "./signals.js";
import type { TaskIndex, TaskProfile } from "./task-index.js";

/** How a request names one task: by what only that task has touched or said. */
export interface TaskAnchor {
  task: TaskProfile;
  /** Request paths that this task, and no other, touched or named. */
  files: string[];
  /** Compound code names (`parse_date`, `Context.invoke`) of a short request that this task, and no other, used: decisive in any language. */
  identifiers: string[];
  /**
   * Its checkout, its id (`t2`) or the label the user gave it ("Task B"). Not its ordinal:
   * "task 4" counts the user's tasks, which need not be the router's.
   */
  named: boolean;
  /** Named by its id or label only (no checkout, no file): the user's word for what the panel showed, which may have moved since. */
  byId: boolean;
  /** Request code names this task used, weighed by how few tasks used them (BM25's IDF, 1 for a task's own), and uncommon words only it used. */
  terms: string[];
  /** Two-word phrases ("date parser") only this task has used. */
  phrases: string[];
  /** How many of those phrases are the task's own name ("the weekly digest", "cron parse" of its file). */
  ownNames: number;
  /** Sum of the terms' and phrases' weights. */
  termScore: number;
  /** Whether a term is one of the task's key words (of its files or code names) or a phrase with one. */
  keyed: boolean;
}

export interface Anchors {
  /** Tasks the request names firmly: an exclusive file, a name, or distinctive terms worth `STRONG_TERMS`. */
  strong: TaskAnchor[];
  /**
   * The highest term score of a task the request shares a key word or phrase with: 0 means it
   * shares nothing that names a task (words used in passing do not).
   */
  bestTermScore: number;
  /** The request's words some task has used. */
  knownWords: ReadonlySet<string>;
  /** Tasks the request counts out ("task 2", "the third task"): the user's count, which may not be the router's. */
  counted: TaskProfile[];
}

/** Below this many words, paths and code names a request is short: its own code name decides it. */
const SHORT_REQUEST = 16;
/** A code name two of a task's requests named is one its people call it by. */
const KEY_REQUESTS = 2;
/** Two of a task's own key words, or its phrase, name it as a person would. */
const STRONG_TERMS = 2;
/** In a follow-up (a reply, a review remark), one of a task's key words and one more of its words are enough. */
const FOLLOW_UP_TERMS = 1.5;
// A word only one task used once, in passing, is half an anchor: remarks share such words by chance.
const PASSING_WEIGHT = 0.5;
// Below this share of a task's own word's weight, a word is too common in the session to name a task.
const MIN_TERM_WEIGHT = 0.5;

/**
 * What in the request names a task whatever the rest of it says. A person names a task by
 * the file it touched, by its id or label, or by the few words only that task has used (its
 * component, its key noun); words every task shares, and words nobody used, name nothing.
 */
export function anchorsOf(options: { text: string; signals: Signals; index: TaskIndex; features: RoutingFeatures }): Anchors {
  const { text, signals, index, features } = options;
  const needed = features.facts.followUp || signals.reviewCue ? FOLLOW_UP_TERMS : STRONG_TERMS;
  const words = [...new Set(signals.words)];
  const phrases = phrasesOf(text);
  // Each path's owners once, not once per task.
  const soleOwner = new Map(signals.paths.map((path) => [path, only(index.tasksWithFile(path))] as const));
  // In a short request a task's own code name is what the request is about; a long report names
  // many functions, some of them its neighbours'. A flag (`--color`) is the whole tool's.
  const short = words.length + signals.paths.length + signals.symbols.length < SHORT_REQUEST;
  const codeNames = short ? signals.symbols.filter((symbol) => !symbol.startsWith("-") && isCompound(symbol) && index.symbolTaskCount(symbol) === 1) : [];
  const ownNameOwners = ownNamesIn(phrases, features.tasks, index);
  const anchors = features.tasks.map((candidate) => anchorOf({ candidate, signals, index, words, phrases, soleOwner, ownNameOwners, codeNames }));
  return {
    // Words a task used in passing ("revert", "swallow") name it only beside one of its key words.
    strong: anchors.filter(
      (anchor) => anchor.files.length > 0 || anchor.identifiers.length > 0 || anchor.named || (anchor.keyed && anchor.termScore >= needed),
    ),
    bestTermScore: Math.max(0, ...anchors.filter((anchor) => anchor.keyed).map((anchor) => anchor.termScore)),
    knownWords: new Set(words.filter((word) => index.wordTaskCount(word) > 0)),
    counted: index.tasks().filter((task) => signals.taskOrdinals.includes(task.ordinal)),
  };
}

function anchorOf(options: {
  candidate: TaskCandidate;
  signals: Signals;
  index: TaskIndex;
  words: readonly string[];
  phrases: readonly string[];
  soleOwner: ReadonlyMap<string, TaskProfile | undefined>;
  /** Each request phrase that one task's own name matches, and that no other task said: that task. */
  ownNameOwners: ReadonlyMap<string, TaskProfile>;
  /** The request's compound code names only one task used, if the request is short. */
  codeNames: readonly string[];
}): TaskAnchor {
  const { candidate, signals, index, words, phrases, soleOwner, ownNameOwners, codeNames } = options;
  const { task } = candidate;
  const files = signals.paths.filter((path) => soleOwner.get(path) === task);
  // One the task's requests keep naming, not one a report mentioned once.
  const identifiers = codeNames.filter((symbol) => (task.requestCounts.get(`s:${symbol}`) ?? 0) >= KEY_REQUESTS);
  const byId = signals.taskIds.includes(task.id) || signals.taskLabels.some((label) => task.labels.has(label));
  // A title quoted or written out, or an issue number only it has, names it as its id does.
  const named = candidate.workspace || byId || candidate.titled;
  const terms: string[] = [];
  let termScore = 0;
  let keyed = false;
  const credit = (term: string, idf: number, weight: number) => {
    if (idf < MIN_TERM_WEIGHT) return;
    terms.push(term);
    termScore += idf * weight;
    if (weight === 1) keyed = true;
  };
  // Only evidence that separates tasks: a word anyone writes ("follow", "response", "json") or one
  // another task used too names none of them.
  for (const word of words) {
    if (!task.words.has(word) && !task.titleWords.has(word) && !task.symbols.has(word)) continue;
    if (isCommonWord(word) || index.wordTaskCount(word) > 1) continue;
    credit(word, 1, task.keyWords.has(word) ? 1 : PASSING_WEIGHT);
  }
  for (const symbol of signals.symbols) {
    if (task.symbols.has(symbol) && !words.includes(symbol)) credit(symbol, idfShare(index.symbolTaskCount(symbol), index.size), 1);
  }
  // The name the task was opened as ("the weekly digest"), one two of its requests used, or its
  // file's ("cron parse" of lib/cron/parse.go), names it even in everyday words, if no other task has it.
  const names = phrases.filter((phrase) => ownNameOwners.get(phrase) === task);
  termScore += STRONG_TERMS * names.length;
  keyed ||= names.length > 0;
  const own = phrases.filter((phrase) => !names.includes(phrase) && task.keyPhrases.has(phrase) && index.phraseTaskCount(phrase) === 1);
  // "date parser" (a file's word in it) names the task; "instead hardcoding" only echoes a remark.
  for (const phrase of own) {
    const withKey = phrase.split(" ").some((word) => task.keyWords.has(word));
    termScore += withKey ? 1 : PASSING_WEIGHT;
    keyed ||= withKey;
  }
  return {
    task,
    files,
    identifiers,
    named,
    byId: (byId || candidate.titled) && !candidate.workspace && files.length === 0,
    terms,
    phrases: [...names, ...own],
    ownNames: names.length,
    termScore: Math.round(termScore * 1000) / 1000,
    keyed,
  };
}

/**
 * The request's phrases that name exactly one task by its own name (in a form of its words:
 * "cron parser" for "cron parse"), and that no other task's requests said. Two words of the
 * trade ("the error message") name nothing.
 */
function ownNamesIn(phrases: readonly string[], candidates: readonly TaskCandidate[], index: TaskIndex): Map<string, TaskProfile> {
  const owners = new Map<string, TaskProfile>();
  const open = new Set(candidates.map(({ task }) => task));
  for (const phrase of phrases) {
    if (phrase.split(" ").every(isDeveloperWord) || index.phraseTaskCount(phrase) > 1) continue;
    const naming = index.tasksNamed(phrase).filter((task) => open.has(task));
    const [first] = naming;
    if (first && naming.length === 1 && (index.phraseTaskCount(phrase) === 0 || first.phrases.has(phrase))) owners.set(phrase, first);
  }
  return owners;
}

function only<T>(items: readonly T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

/**
 * BM25's inverse document frequency over the session's tasks, as a share of a word only one
 * task used: 1 for a task's own word, less the more tasks share it, near 0 for a word all use.
 */
function idfShare(owners: number, tasks: number): number {
  const idf = (count: number) => Math.log(1 + (tasks - count + 0.5) / (count + 0.5));
  return idf(Math.max(1, owners)) / idf(1);
}
