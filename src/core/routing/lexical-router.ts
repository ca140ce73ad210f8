import { roundConfidence, type DecisionBasis, type RoutingDecision } from "./decision.js";
import { basename, GENERIC_WORDS, parentDirectory, type Signals } from "./signals.js";
import { samePath, type TaskIndex, type TaskProfile } from "./task-index.js";
import { taskTitle } from "./task-title.js";

/** The request being routed, with its signals already read out. */
export interface RoutingRequest {
  text: string;
  signals: Signals;
}

interface Scored {
  task: TaskProfile;
  /** Evidence from files, symbols and words; the continuation prior is separate. */
  evidence: number;
  files: number;
  symbols: number;
  words: number;
  /** Share of the request's paths, symbols and words this task has seen. */
  coverage: number;
}

// Weights and thresholds were set on the labelled sessions in fixtures/routing/.
const WEIGHT = { file: 1.0, directory: 0.3, symbol: 0.9, word: 0.5 } as const;
/** Staying on the current task: stronger for a follow-up that reads like one. */
const PRIOR = { followUp: 0.45, plain: 0.3 } as const;
const GENERIC_SHARE = 0.4;

/**
 * Routes a request with no model and no network: explicit references and workspace paths
 * first, then file, symbol and word overlap with each task, with a prior for staying on the
 * current task. Confidence is high only when the evidence leaves one reading.
 */
export function routeLexically(request: RoutingRequest, index: TaskIndex): RoutingDecision {
  const { signals } = request;
  const shared = signals.sharedCue;
  const decide = (
    target: RoutingDecision["target"],
    confidence: number,
    reason: string,
    basis: DecisionBasis = "content",
    related: readonly string[] = [],
  ): RoutingDecision => ({
    target,
    confidence: roundConfidence(confidence),
    related: [...new Set(related)].filter((id) => target.kind === "new" || id !== target.task).sort(),
    shared,
    reason,
    basis,
    router: "lexical",
  });
  const newTask = () => ({ kind: "new" as const, title: taskTitle(request.text) });
  const onTask = (task: TaskProfile) => ({ kind: "task" as const, task: task.id });

  if (index.size === 0) return decide(newTask(), 1, "first request of the session", "first");
  const current = index.current === undefined ? undefined : index.task(index.current);
  if (shared && current) return decide(onTask(current), 0.9, "shared instruction, meant for every task", "shared");

  const explicit = explicitReference(signals, index);
  if (explicit) return decide(explicit.task ? onTask(explicit.task) : newTask(), explicit.confidence, explicit.reason, "explicit");

  const place = workspaceMatch(signals, index);
  if (place?.kind === "one") return decide(onTask(place.task), 0.97, `workspace ${place.directory}`, "workspace");
  if (place?.kind === "none") return decide(newTask(), 0.95, `workspace ${place.directory} not seen in any task`, "workspace");

  const owners = new Map(signals.paths.map((path) => [path, index.tasksWithFile(path)] as const));
  const scored = index.tasks().map((task) => score(task, signals, index, owners));
  scored.sort((a, b) => b.evidence - a.evidence || b.task.lastRequest - a.task.lastRequest);
  const backReference = signals.backReference ? backReferenceMatch(signals.backReference, scored) : undefined;
  if (backReference) return decide(onTask(backReference.task), backReference.confidence, backReference.reason, "back-reference");

  return contentDecision({ request, scored, index, current, decide, newTask, onTask });
}

function explicitReference(
  signals: Signals,
  index: TaskIndex,
): { task: TaskProfile | undefined; confidence: number; reason: string } | undefined {
  if (signals.taskLabels.length === 1) {
    const label = signals.taskLabels[0] as string;
    const owner = index.tasks().find((task) => task.labels.has(label));
    if (owner) return { task: owner, confidence: 0.95, reason: `explicit reference to task ${label.toUpperCase()}` };
    return { task: undefined, confidence: 0.9, reason: `names task ${label.toUpperCase()}, not seen before` };
  }
  const ordinals = signals.taskOrdinals.map((n) => index.tasks().find((task) => task.ordinal === n));
  if (ordinals.length === 1 && ordinals[0]) return { task: ordinals[0], confidence: 0.95, reason: `explicit reference to task ${ordinals[0].ordinal}` };
  const refs = new Set([...signals.issueRefs, ...signals.numbers]);
  const owners = index.tasks().filter((task) => [...refs].some((ref) => task.issueRefs.has(ref)));
  if (owners.length === 1 && owners[0]) {
    const ref = [...refs].find((candidate) => owners[0]?.issueRefs.has(candidate));
    return { task: owners[0], confidence: 0.95, reason: `explicit reference to ${ref}` };
  }
  return undefined;
}

type WorkspaceMatch =
  | { kind: "one"; task: TaskProfile; directory: string }
  | { kind: "none"; directory: string };

/** A named checkout decides when exactly one task worked there, or none while tasks have their own. */
function workspaceMatch(signals: Signals, index: TaskIndex): WorkspaceMatch | undefined {
  const places = [...signals.workspaces, ...signals.paths.filter((path) => path.startsWith("/")).map(parentDirectory)];
  for (const directory of places) {
    const owners = index.tasksInWorkspace(directory);
    if (owners.length === 1 && owners[0]) return { kind: "one", task: owners[0], directory };
    if (owners.length === 0 && signals.workspaces.includes(directory) && isSiblingCheckout(directory, index)) {
      return { kind: "none", directory };
    }
  }
  return undefined;
}

/**
 * An unseen directory next to the checkouts other tasks work in (`ws4` beside `ws1`, `ws2`)
 * is a new task's checkout; any other unseen directory says nothing.
 */
function isSiblingCheckout(directory: string, index: TaskIndex): boolean {
  const parent = parentDirectory(directory);
  if (parent === "") return false;
  const checkoutParents = index.tasks().filter((task) => [...task.workspaces].some((workspace) => parentDirectory(workspace) === parent));
  return checkoutParents.length >= 1;
}

/** `fileOwners`: the tasks that touched each of the request's paths, looked up once per request. */
function score(task: TaskProfile, signals: Signals, index: TaskIndex, fileOwners: ReadonlyMap<string, readonly TaskProfile[]>): Scored {
  let files = 0;
  let seen = 0;
  for (const path of signals.paths) {
    const owners = fileOwners.get(path) ?? [];
    if (owners.includes(task)) {
      files += WEIGHT.file / owners.length;
      seen += 1;
    } else if (owners.length === 0 && sharesDirectory(task, path)) files += WEIGHT.directory;
  }
  let symbols = 0;
  for (const symbol of signals.symbols) {
    if (task.symbols.has(symbol)) symbols += symbolWeight(symbol) / Math.max(1, index.symbolTaskCount(symbol));
  }
  let words = 0;
  const unique = new Set(signals.words);
  for (const word of unique) {
    if (!task.words.has(word) && !task.titleWords.has(word) && !task.symbols.has(word)) continue;
    seen += 1;
    // A code span like `page` is a symbol and a word: count its evidence once.
    if (signals.symbols.includes(word) && task.symbols.has(word)) continue;
    words += (WEIGHT.word * (GENERIC_WORDS.has(word) ? GENERIC_SHARE : 1)) / Math.max(1, index.wordTaskCount(word));
  }
  seen += signals.symbols.filter((symbol) => task.symbols.has(symbol)).length;
  const size = unique.size + signals.paths.length + signals.symbols.length;
  return { task, evidence: files + symbols + words, files, symbols, words, coverage: size === 0 ? 0 : seen / size };
}

/** A compound identifier (`fetch_pages`, `Context.invoke`) names one thing; `page` in backticks is nearly a word. */
function symbolWeight(symbol: string): number {
  return /[_.\-]/.test(symbol) || symbol.length >= 10 ? WEIGHT.symbol : WEIGHT.word;
}

function sharesDirectory(task: TaskProfile, path: string): boolean {
  const directory = parentDirectory(path);
  if (directory === "") return false;
  for (const known of task.directories) if (samePath(known, directory)) return true;
  return false;
}

function backReferenceMatch(
  phrase: readonly string[],
  scored: readonly Scored[],
): { task: TaskProfile; confidence: number; reason: string } | undefined {
  // A task named by its title ("the compaction fix" for "#398: panic during compaction")
  // beats one that merely mentioned the word later.
  const hits = scored
    .map(({ task }) => ({
      task,
      hits: phrase.filter((word) => task.words.has(word) || task.titleWords.has(word) || task.symbols.has(word)).length,
      inTitle: phrase.filter((word) => task.titleWords.has(word)).length,
    }))
    .filter((entry) => entry.hits > 0)
    .sort((a, b) => b.hits - a.hits || b.inTitle - a.inTitle || b.task.lastRequest - a.task.lastRequest);
  const [first, second] = hits;
  if (!first) return undefined;
  if (second && second.hits === first.hits && second.inTitle === first.inTitle) return undefined;
  const clear = !second || first.hits > second.hits;
  return {
    task: first.task,
    confidence: clear && (first.hits >= 2 || !second) ? 0.93 : 0.85,
    reason: `back-reference to "${phrase.join(" ")}"`,
  };
}

function contentDecision(args: {
  request: RoutingRequest;
  scored: readonly Scored[];
  index: TaskIndex;
  current: TaskProfile | undefined;
  decide: (target: RoutingDecision["target"], confidence: number, reason: string) => RoutingDecision;
  newTask: () => RoutingDecision["target"];
  onTask: (task: TaskProfile) => RoutingDecision["target"];
}): RoutingDecision {
  const { request, scored, index, current, decide, newTask, onTask } = args;
  const { signals } = request;
  const strongest = scored[0];
  if (!strongest) return decide(newTask(), 0.5, "no tasks to compare");
  const followUp = readsAsFollowUp(request.text, signals);
  const novel = novelty(signals, scored, index);
  const evidence = strongest.evidence;

  if (signals.newTaskCue && evidence < 1.5) {
    return decide(newTask(), evidence < 0.7 ? 0.9 : 0.7, `says it starts something new (strongest task evidence ${evidence.toFixed(2)})`);
  }
  const coverage = Math.max(...scored.map((entry) => entry.coverage));
  const hard = Math.max(...scored.map((entry) => entry.files + entry.symbols));
  if (opensLikeIssue(request.text, signals) && !followUp && novel >= 0.7 && coverage < 0.3 && hard < 2) {
    const sure = novel >= 0.8 && coverage < 0.2 && hard < 0.5;
    return decide(newTask(), sure ? 0.88 : 0.7, `reads as a new issue, ${Math.round(novel * 100)}% unseen, at most ${Math.round(coverage * 100)}% known to one task`);
  }

  const prior = followUp ? PRIOR.followUp : PRIOR.plain;
  const ranked = scored
    .map((entry) => ({ ...entry, total: entry.evidence + (entry.task === current ? prior : 0) }))
    .sort((a, b) => b.total - a.total || b.task.lastRequest - a.task.lastRequest);
  const best = ranked[0] as (typeof ranked)[number];
  const runnerUp = ranked[1];
  const margin = best.total - (runnerUp?.total ?? 0);
  let confidence = 1 / (1 + Math.exp(-(margin - (best.task === current ? 0.6 : 0.5)) * 4));
  // Nothing speaks for another task: staying is safe.
  if (best.task === current && (runnerUp?.evidence ?? 0) < 0.2) confidence = Math.max(confidence, followUp ? 0.9 : 0.78);
  return decide(
    onTask(best.task),
    Math.min(0.97, confidence),
    `${best.task === current ? "stays on" : "switches to"} ${best.task.id}: evidence ${best.evidence.toFixed(2)} (files ${best.files.toFixed(2)}, symbols ${best.symbols.toFixed(2)}, words ${best.words.toFixed(2)})${followUp ? ", reads as a follow-up" : ""}, margin ${margin.toFixed(2)}`,
  );
}

const FOLLOW_UP_START =
  /^\s*(?:and|also|now|then|ok|okay|same|so|but|still|hmm|wait|great|good|nice|thanks|perfect|yes|no|what about|how about|does|did|is|are|can you|could you|please|run|rerun|re-run|add|test|tests|it|that|this|those|these|the same|one more|another test|make it|let's|lets)\b(?![/.\w])/i;

/** Points at work already done: "now fails", "the new test", "your change", "still". */
const FOLLOW_UP_MARKER = /\b(?:now|still|again|anymore|the new (?:test|code|function|option|flag|check)|(?:your|that|the) (?:change|fix|patch)|you (?:added|wrote|made|changed))\b/i;

/** Short, or opening like a reply to what was just done ("now add a test", "run them"). */
function readsAsFollowUp(text: string, signals: Signals): boolean {
  const words = new Set(signals.words).size;
  if (words <= 5 && signals.paths.length === 0) return true;
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

/** Share of the request's paths, symbols and words that no task has seen. */
function novelty(signals: Signals, scored: readonly Scored[], index: TaskIndex): number {
  const tasks = scored.map((entry) => entry.task);
  const seenWord = (word: string) => index.wordTaskCount(word) > 0;
  const seenPath = (path: string) => index.knowsFileNamed(basename(path));
  const seenSymbol = (symbol: string) => tasks.some((task) => task.symbols.has(symbol));
  const words = [...new Set(signals.words)];
  const items = [
    ...words.map((word) => ({ seen: seenWord(word), weight: 1 })),
    ...signals.paths.map((path) => ({ seen: seenPath(path), weight: 2 })),
    ...signals.symbols.map((symbol) => ({ seen: seenSymbol(symbol), weight: 2 })),
  ];
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  return total === 0 ? 0 : items.filter((item) => !item.seen).reduce((sum, item) => sum + item.weight, 0) / total;
}
