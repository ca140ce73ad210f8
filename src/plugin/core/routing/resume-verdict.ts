import { BACK_CUE, openingWords, RETURN_CUE } from "./anchor-rules.js";
import { isCommonWord } from "./common-words.js";
import type { RoutingDecision } from "./decision.js";
import { phrasesOf } from "./phrases.js";
import { isCompound } from "./routing-features.js";
import { contentWords, GENERIC_WORDS, type Signals } from "./signals.js";
import { type Evidence, TaskIndex, type TaskProfile } from "./task-index.js";

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
  /** Ticket keys (`PAY-231`) each task's requests named. */
  tickets: ReadonlyMap<string, ReadonlySet<string>>;
  /** The tasks marked done, by their index id (never candidates). */
  finished: ReadonlyMap<string, EarlierTask>;
  /** How many tasks (unfinished or done) of each session are known. */
  sessions: ReadonlyMap<string, number>;
  /** Each task's code names and file names without extension, with `_`, `-` and `.` taken out (`check_call` is `checkcall`). */
  codeForms: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The index's id of a finished task: never a candidate. */
const FINISHED = "done:";

/** A tracker's ticket key: `PAY-231`, `ROUTE-230` (an id a person quotes, like a code name). */
const TICKET = /\b[A-Z][A-Z0-9]{1,9}-\d+\b/g;

function ticketsIn(text: string): string[] {
  return text.match(TICKET) ?? [];
}

/** A code name as people write it either way: `check_call`, `checkCall`, `dialog_runner.gd` all read `checkcall`, `dialogrunner`. */
function codeForm(name: string): string {
  return name
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, "")
    .replace(/[_.-]/g, "");
}

/**
 * `finished`: earlier tasks marked done. Never resumed, they still count: what one of them
 * shares with an unfinished task names neither, and a request about one of them ("the slots
 * are wrong again") is about work done, not the unfinished neighbour.
 */
export function indexEarlierTasks(tasks: readonly EarlierTask[], finished: readonly EarlierTask[] = []): EarlierTasks {
  const index = new TaskIndex();
  for (const task of [...tasks, ...finished.map((done) => ({ ...done, key: `${FINISHED}${done.key}` }))]) {
    index.addTask(task.key, task.title, { settled: true });
    for (const evidence of task.evidence) index.addEvidence(task.key, evidence);
  }
  // None of them is what the session is on: a reply names none of them.
  index.current = undefined;
  const tickets = new Map(
    [...tasks, ...finished.map((done) => ({ ...done, key: `${FINISHED}${done.key}` }))].map((task) => [
      task.key,
      new Set(task.evidence.flatMap((evidence) => ticketsIn(evidence.text ?? ""))),
    ]),
  );
  const codeForms = new Map(
    index
      .tasks()
      .map((profile) => [
        profile.id,
        new Set([...profile.symbols, ...[...profile.files].map((file) => file.split("/").at(-1) ?? file)].map(codeForm).filter((form) => form.length >= 6)),
      ]),
  );
  const sessions = new Map<string, number>();
  for (const task of [...tasks, ...finished]) sessions.set(task.sessionID, (sessions.get(task.sessionID) ?? 0) + 1);
  const done = new Map(finished.map((task) => [`${FINISHED}${task.key}`, task]));
  return { index, byKey: new Map(tasks.map((task) => [task.key, task])), finished: done, tickets, codeForms, sessions };
}

/**
 * `resume`: the request names exactly one earlier task by what only it has (its file, its code
 * name, its title, its own phrase, or its words after "back to ..."), and nothing of the
 * session's own tasks: its record comes along. `offer`: it points to one (or to several, the
 * likeliest offered) but not decisively: nothing comes along, the person is asked.
 */
export type ResumeVerdict = {
  kind: "resume" | "offer";
  task: EarlierTask;
  why: string;
  /** A resumption on a file or code name only that task has. */
  decisive?: boolean;
};

/** Confidence of a resumption a request decides: as sure as a request naming a task of its own session by its file or name. */
export const RESUMED_CONFIDENCE = 0.92;

/** Resuming is asked only where the session's own routing is not sure the request belongs to one of its tasks (nor meant for every task). */
export function mayResume(decision: RoutingDecision, threshold: number): boolean {
  return !decision.shared && (decision.target.kind === "new" || decision.confidence < threshold);
}

/**
 * Whether a request resumes an earlier session's task. Only what one earlier task has and no
 * other (nor any of the session's own tasks) counts: its files, its code names, its words and
 * two-word phrases, its session's title. A person coming back says so ("back to ...", "still",
 * "finish", "from Monday") or names it twice over (its file and its words); a file or a word
 * alone may as well start something new beside it (offered, not resumed), and "new thing",
 * "another", "different" start something new whatever they share.
 */
export function resumeVerdict(options: {
  text: string;
  signals: Signals;
  earlier: EarlierTasks;
  current: TaskIndex;
  /** The session's own routing was sure of one of its tasks: only a file or code name no task of the session has takes the request elsewhere. */
  sureHere?: boolean;
}): ResumeVerdict | undefined {
  const verdict = considerEarlier(options);
  return options.sureHere && !verdict?.decisive ? undefined : verdict;
}

function considerEarlier(options: { text: string; signals: Signals; earlier: EarlierTasks; current: TaskIndex }): ResumeVerdict | undefined {
  const { text, signals, earlier, current } = options;
  if (earlier.index.size === 0 || signals.explicitNewTask) return undefined;
  const scored = earlier.index
    .tasks()
    .map((profile) => scoreTask({ profile, signals, text, earlier, current }))
    .filter((score) => score.total > 0)
    .sort((a, b) => b.total - a.total || a.profile.id.localeCompare(b.profile.id));
  // A finished task the request names at least as well: it is about work done (a new task), not the unfinished neighbour.
  const best = scored[0];
  if (best?.profile.id.startsWith(FINISHED)) return undefined;
  const task = best && earlier.byKey.get(best.profile.id);
  if (!best || !task) return undefined;
  const offer = (why: string): ResumeVerdict => ({ kind: "offer", task, why });
  const second = scored[1];
  // Its title, file or code name outweighs another task's words.
  const decisive = (score: TaskScore) => score.titled || score.files.length + score.codeNames.length > 0;
  // A done task named nearly as well leaves it unsure whichever way: nothing comes in.
  if (second?.profile.id.startsWith(FINISHED) && second.total * AMBIGUOUS_RATIO >= best.total) return undefined;
  const outweighs = decisive(best) && second !== undefined && !decisive(second);
  if (second && second.total * AMBIGUOUS_RATIO > best.total && !outweighs) return offer(`names ${best.profile.id} and ${second.profile.id}`);
  if (NEW_WORK.test(text) || NEW_MARK.test(text) || signals.newTaskCue) return offer(`says it starts something, yet uses ${described(best)}`);
  const returns = BACK_CUE.test(openingWords(text)) || RETURN_CUE.test(text) || COMING_BACK.test(text) || KNOWN_THING.test(text);
  const words = best.words.length + best.phrases.length > 0;
  // A file two earlier tasks share names one of them where its own words pick it.
  const hard = best.files.length + best.codeNames.length > 0 || (best.sharedFiles.length > 0 && words);
  // Said almost wholly in the task's own words ("Widgets: hourly refresh."): new work brings words of its own.
  const inItsWords = best.total >= 1.5 && best.coverage >= WHOLLY_ITS_WORDS && best.newRareWords === 0;
  // One word of its own is a topic, not a task ("the controller issue"): a cue needs two, a phrase, a file or a code name.
  const named = hard || best.phrases.length > 0 || best.total >= 1.5;
  if ((returns && named) || (hard && words) || best.titled || inItsWords)
    return { kind: "resume", task, why: `names ${described(best)}`, decisive: decisive(best) };
  return offer(`uses ${described(best)}`);
}

/** A second task this close to the best one (its score times this above the best's) leaves the request unsure. */
const AMBIGUOUS_RATIO = 2;
/** Starting something beside a task: "different thing", "another ...", "new thing", "also need a ...". */
const NEW_WORK =
  /\b(?:new|another|different|diff|separate|other) (?:\w+ )?(?:thing|one|task|feature|issue|bug|crash|error|problem|report|request|ticket|idea)\b|\b(?:we |i )?(?:also )?need (?:a|an)\b/i;
/** A thing both already know, named as such: "the hw crc thing", "the metrics one", "the menu issue". */
const KNOWN_THING = /\b(?:the|that|this) (?:[\w/.-]+ ){1,4}(?:thing|one|issue|bug|problem|stuff|work|fix|ticket)\b/i;
/** "new" standing alone as a label: "TAB-64 new: ...", "... by status. new" */
const NEW_MARK = /(?:^|[\s([])new(?:\s*[:)\]—-]|\s*[.!]?\s*$)/i;
/** Of the request's words, this share the task used too: the request is about it, not beside it. */
const WHOLLY_ITS_WORDS = 0.75;
/** Words that say a person comes back, never what they come back to. */
const CUE_WORDS = new Set([
  "back",
  "continu",
  "continue",
  "finish",
  "still",
  "again",
  "resum",
  "resume",
  "pick",
  "left",
  "yesterday",
  "earlier",
  "morn",
  "morning",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "week",
  "last",
  "time",
  "thing",
  "stuff",
  "work",
]);
/** Coming back to unfinished work: "still", "finish", "continuing", "left off", "from Monday", "did we ...". */
const COMING_BACK =
  /\b(?:still|finish(?:ed|ing)?|(?<!before (?:we |i |you )?)continu(?:e|ing)|left (?:it|off)|where we (?:were|stopped)|last (?:time|week|night)|yesterday|earlier|this morning|(?:on|from|since) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|did we|we talked about|never (?:got|written|finished)|not (?:yet )?(?:done|finished)|where are we|what(?:'s| is) left|what remains|any news|status of|is it done|how far)\b/i;

interface TaskScore {
  profile: TaskProfile;
  files: string[];
  /** Files it and other earlier tasks (none of the session's own) touched. */
  sharedFiles: string[];
  codeNames: string[];
  words: string[];
  phrases: string[];
  /** The request quotes or writes out its session's title or its own title. */
  titled: boolean;
  /** The share of the request's words (cue words aside) that the task used too, its own or not. */
  coverage: number;
  /** The request's uncommon words the task never used: new work brings its own. */
  newRareWords: number;
  total: number;
}

/** What of the request only this earlier task has (and none of the session's own tasks). */
function scoreTask(options: { profile: TaskProfile; signals: Signals; text: string; earlier: EarlierTasks; current: TaskIndex }): TaskScore {
  const { profile, signals, text, earlier, current } = options;
  const { index } = earlier;
  const only = (owners: readonly TaskProfile[]) => owners.length === 1 && owners[0] === profile;
  // A file name the text tokenizer read as a code name (`app_de.arb`) is a file where a task touched one of that name.
  const named = [...signals.paths, ...signals.symbols.filter((symbol) => symbol.includes(".") && index.knowsFileNamed(symbol))];
  const apart = named.filter((path) => current.tasksWithFile(path).length === 0);
  // Its checkout (a directory only it worked in, as Switch-SWE's `/tmp/run/ws3: ...`) names it as its file does.
  const checkouts = signals.workspaces.filter((directory) => only(index.tasksInWorkspace(directory)) && current.tasksInWorkspace(directory).length === 0);
  const files = [...apart.filter((path) => only(index.tasksWithFile(path))), ...checkouts];
  const sharedFiles = apart.filter((path) => !files.includes(path) && index.tasksWithFile(path).includes(profile));
  // Its code names, as written there or written the other way (`checkCall` for `check_call`, `dialog_runner` for `dialog_runner.gd`), and its tickets.
  const formOwners = (form: string) => [...earlier.codeForms].filter(([, forms]) => forms.has(form)).map(([key]) => key);
  const codeNames = [
    ...signals.symbols.filter((symbol) => {
      if (symbol.startsWith("-") || files.includes(symbol) || !isCompound(symbol) || current.symbolTaskCount(symbol) > 0) return false;
      if (profile.symbols.has(symbol)) return index.symbolTaskCount(symbol) === 1;
      const owners = formOwners(codeForm(symbol));
      return owners.length === 1 && owners[0] === profile.id;
    }),
    ...ticketsIn(text).filter(
      (ticket) =>
        [...earlier.tickets]
          .filter(([, tickets]) => tickets.has(ticket))
          .map(([key]) => key)
          .join() === profile.id,
    ),
  ];
  const own = (word: string) => profile.words.has(word) && index.wordTaskCount(word) === 1 && current.wordTaskCount(word) === 0;
  const requestWords = [...new Set(signals.words)].filter((word) => word.length > 2 && !GENERIC_WORDS.has(word) && !CUE_WORDS.has(word));
  const words = requestWords.filter(own);
  const coverage = requestWords.length === 0 ? 0 : requestWords.filter((word) => profile.words.has(word)).length / requestWords.length;
  const newRareWords = requestWords.filter((word) => !isCommonWord(word) && !profile.words.has(word)).length;
  const phrases = phrasesOf(text).filter(
    (phrase) => profile.phrases.has(phrase) && index.phraseTaskCount(phrase) === 1 && current.phraseTaskCount(phrase) === 0,
  );
  // A done task's titles count too: a request naming one is about it, not its unfinished sibling.
  const task = earlier.byKey.get(profile.id) ?? earlier.finished.get(profile.id);
  const lower = text.toLowerCase();
  const says = (title: string | undefined) =>
    title !== undefined && contentWords(title).length >= 2 && lower.includes(title.toLowerCase().replace(/…$/, "").trim());
  // A session title names a task only where the session had no other (unfinished or done): else its tasks together, and their own words tell them apart.
  // A done task's session title is its unfinished siblings' too: only its own title counts for it.
  const sessionTitled = !profile.id.startsWith(FINISHED) && says(task?.sessionTitle);
  const siblings = task ? sessionTasks(earlier, task.sessionID) : 0;
  const titled = says(task?.title) || sessionTitled;
  const wordScore = words.reduce((sum, word) => sum + (isCommonWord(word) ? COMMON_WORD : 1), 0);
  const total = 2 * files.length + 2 * codeNames.length + wordScore + PHRASE * phrases.length + (titled ? 2 : sessionTitled ? 1 : 0);
  return { profile, files, sharedFiles, codeNames, words, phrases, titled, coverage, newRareWords, total };
}

/** How many tasks of a session (unfinished or done) the earlier tasks hold. */
function sessionTasks(earlier: EarlierTasks, sessionID: string): number {
  return earlier.sessions.get(sessionID) ?? 0;
}

/** A word anyone writes counts for this much of a word only one task used. */
const COMMON_WORD = 0.5;
const PHRASE = 1.5;

function described(score: TaskScore): string {
  const parts: string[] = [];
  if (score.files.length > 0) parts.push(`its file ${score.files.join(", ")}`);
  if (score.codeNames.length > 0) parts.push(`its code name ${score.codeNames.join(", ")}`);
  if (score.titled) parts.push("its title");
  if (score.phrases.length > 0) parts.push(`its words "${score.phrases.join('", "')}"`);
  else if (score.words.length > 0) parts.push(`its words ${score.words.map((word) => `"${word}"`).join(", ")}`);
  return parts.join(" and ");
}
