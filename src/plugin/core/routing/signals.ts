/**
 * What a piece of text says about which task it concerns. Everything is normalised
 * (paths without `./`, symbols and words lower-cased) and sorted, so the same text
 * always yields the same signals.
 */
export interface Signals {
  /** Relative or absolute file paths (`src/click/core.py`, `/tmp/run/ws3/setup.py`). */
  paths: string[];
  /** Absolute directories named as a place to work (`/tmp/run-17/ws3`). */
  workspaces: string[];
  /** Code symbols: code spans, CamelCase, snake_case, dotted names, `--flags`, `func()`. */
  symbols: string[];
  /** Issue or PR numbers written as `#123` or `GH#123`. */
  issueRefs: string[];
  /** Bare numbers of 3 to 7 digits, as `#n`: "and the one for 8560" names issue #8560. */
  numbers: string[];
  /** `task 2` / `task #2` / "the second task": the session's second task, 1-based. */
  taskOrdinals: number[];
  /** `t2`, `task t2`: the ids the plug-in shows the user (`rcm_tasks`, `/rcm`), lower-cased. */
  taskIds: string[];
  /** Phrases in quotes (two words or more), lower-cased: "back to 'Timeout on streams'" names a title. */
  quoted: string[];
  /** `Task B`: a name the user gives a task, lower-cased. */
  taskLabels: string[];
  /** Words after "back to", "return to", "the ... work": a named earlier task. */
  backReference: string[] | null;
  /** "from now on", "for all tasks": meant for every task. */
  sharedCue: boolean;
  /** A collective scope: "all of these", "for every fix", "whatever you touch". */
  scopeCue: boolean;
  /** A time scope: "today", "this session", "for the rest of the day". */
  timeScope: boolean;
  /** Reads as a standing rule: "rule", "reminder", "never", "always", "don't ... any". */
  ruleCue: boolean;
  /** "as I said": a reminder of something said before (a rule, or a task's point). */
  reminderCue: boolean;
  /** "new task", "unrelated", "separate issue": the request says it starts something new. */
  newTaskCue: boolean;
  /**
   * Says outright that it starts a task ("New task: ...", "new thing: ...", "separately, ...",
   * "Task B: ...", "unrelated, but ..."): a person's own word, which opens a task whatever
   * else the request shares with one.
   */
  explicitNewTask: boolean;
  /** A review remark, QA note or CI report ("reviewer: ...", "nit:", "QA says", "CI is red"): about work already done. */
  reviewCue: boolean;
  /**
   * Two-word names the request puts after "the" ("the shipping middleware", "the date
   * parser"), as content words: what a request about a thing names it by.
   */
  namedThings: string[];
  /** Of those, the ones after "the", "our" or "my": a thing already known, as a task is named ("a clear error" names none). */
  definiteThings: string[];
  /** Content words (lower-cased, light stemming, stop words removed), with repeats. */
  words: string[];
}

const FILE_EXTENSIONS =
  "py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|rb|java|kt|scala|c|h|cc|cpp|hpp|cs|swift|php|md|rst|txt|toml|yaml|yml|json|cfg|ini|lock|sql|html|css|scss|sh|proto|graphql|vue|svelte|ex|exs|erb|xml|csv|env|mod|sum";
const PATH_PATTERN = new RegExp(
  String.raw`(?<![\w@:/.-])((?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]*|[\w@+-][\w.@+-]*\.(?:${FILE_EXTENSIONS}))(?![\w/-])`,
  "gi",
);
const CODE_SPAN = /`([^`\n]{1,120})`/g;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g;
const CAMEL = /\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/g;
const SNAKE = /\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b/g;
const DOTTED = /\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?/g;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]{2,})\(\)/g;
const FLAG = /(?<![\w-])--[a-z][a-z0-9-]{1,40}\b/g;
const ISSUE = /(?<!&)#(\d{1,7})\b/g;
const NUMBER = /(?<![\w.#-])(\d{3,7})(?![\w-]|\.\d)/g;
const ORDINAL = /\btask\s*#?\s*(\d{1,3})\b/gi;
const ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const ORDINAL_WORD = new RegExp(String.raw`\b(?:the|that|my|our)\s+(${ORDINAL_WORDS.join("|")}|\d(?:st|nd|rd|th))\s+(?:task|one)\b`, "gi");
// `t2` as a word of its own (not `t2.micro`, `t2-large`, `st2`, not `T2` in code), or `task T2`.
const TASK_ID = /(?<![\w./-])(?:t|(?<=\btask\s)T)([1-9]\d{0,2})(?![\w-]|\.\w)/gi;
// A quote closes only before a space, punctuation or the end, so "isn't" stays inside.
const QUOTED = /(?:^|[\s(:])(['"\u2018\u201c])([^"\n]{4,80}?)(?:\1|[\u2019\u201d])(?=[\s.,;:!?)]|$)/g;
const LABEL = /\b[Tt]ask\s+([A-Z])\b/g;
// "for the NO_PROXY fix: ...", "about the timeout bug from before": at the start of a request.
const BACK_REFERENCE =
  /^\W*(?:\w+\s+){0,3}?(?:back to|back on|return(?:ing)? to|resume|resuming|again on|re:?|regarding|about|for|on)\s+(?:the\s+|my\s+|our\s+|that\s+)([\w\s./#`'-]{2,50}?)\s+(?:work|task|bug|issue|feature|change|fix|pr|ticket|refactor|thing)\b/i;
// "back to the CSV export", but not "fall back to the default".
const BACK_TO =
  /(?<!\b(?:fall|falls|falling|fell|roll|rolls|rolled|go|goes|went|revert|reverts|set|sets|change|changes|it)\s)\b(?:back to|back on|return(?:ing)? to|switch(?:ing)? back to|resuming|picking up|pick up)\s+(?:the\s+|my\s+|our\s+|that\s+)?([^.,;:!?\n]{2,60})/i;
const SHARED_CUE = new RegExp(
  [
    String.raw`\b(?:from now on|going forward|from here on|for the rest of (?:the|this) session|until (?:further notice|i say otherwise))`,
    String.raw`\bfor (?:all|every|each) (?:of )?(?:the |these |my |our |your )?(?:[\w-]+ )?(?:tasks?|changes|fixes|prs?|branches|workspaces|checkouts|test runs|tests|runs|commits|of them|of these)\b`,
    String.raw`\b(?:in|across) (?:all|every) (?:the )?(?:tasks?|workspaces?|repos|checkouts?)\b`,
    String.raw`\bfor (?:everything|anything)\b(?! else)`,
    String.raw`\balways (?:run|use|keep|add|write|prefer)\b`,
    String.raw`\bacross the board\b|^\W*everywhere\b|\b(?:general|global|standing|house|team) rule\b|\brule for (?:all|everything|every)\b|\bfor all of (?:it|this|them)\b`,
    String.raw`\bnever (?:run|use|touch|push|commit|add|change|modify|edit)\b`,
  ].join("|"),
  "i",
);
const NEW_TASK_CUE = new RegExp(
  [
    String.raw`\b(?:new task|another task|unrelated|something else|one more thing|while (?:we're|we are|i have you) at it|also,? (?:there's|there is|i noticed)|new issue|a new bug|new bug|new one|next one)\b`,
    String.raw`\bseparate(?: \w+){0,2} (?:task|issue|thing|bug|problem|question|report|fix|one)\b|\brelated but separate\b`,
    String.raw`\bdifferent (?:task|issue|topic|thing|area|question|problem|bug)\b`,
    String.raw`^\W*(?:another|next)\b(?: [\w-]+){0,3}? (?:one|bug|thing|issue|task|question|report)\b|^\W*next\s*[:—-]`,
    String.raw`\b(?:pasting|pasted|posting) (?:an? )?(?:issue|report|bug)|\bfrom the tracker\b|\b(?:a|one of our) users? (?:sent|reported|filed)\b|\bthis came in\b`,
  ].join("|"),
  "i",
);
// Chat leads before a cue: "ok new thing: ...", "btw, separately ...".
const CHAT_LEAD = String.raw`^\W*(?:(?:ok|okay|btw|also|and|oh|so|hey|right|alright|now|next)\b[,!.:]?\s+)*`;
const EXPLICIT_NEW_TASK = new RegExp(
  [
    CHAT_LEAD +
      String.raw`(?:(?:a |one )?new (?:task|thing|issue|bug|request|ticket|feature|job|item)\b|another (?:thing|task|issue|request)\b|separately\b|separate (?:issue|task|thing|bug|question|problem)\b|unrelated\b|different (?:task|thing|topic)\b|next (?:task|thing|issue|item)\b|task [a-z]\s*[:.\-—])`,
    // Within a sentence, a cue is set off as a heading ("here's a new task: ...", "unrelated issue - ..."):
    // "allocated in new task" or "an unrelated bug?" is no cue.
    String.raw`\b(?:(?:a |one )?new task|unrelated (?:task|issue|thing|bug|question|request)|(?:a |one )?separate (?:task|issue|thing) (?:entirely|altogether))\s*[:,\u2014\u2013-]`,
    String.raw`\b(?:switching gears|change of (?:topic|subject)|(?:something|totally|completely) (?:else|different) entirely)\b`,
  ].join("|"),
  "i",
);
const REVIEW_CUE = new RegExp(
  CHAT_LEAD +
    String.raw`(?:(?:the |a |another )?(?:reviewer|review|maintainer|qa|ci|pr (?:review|feedback|comment))s?\b(?: \w+){0,2}?\s*(?:[:\-—]|says?|said|wants?|asks?|asked|notes?|noted|flagged|points? out|pointed out|(?:is |went )?(?:red|failing|fails))|nit\b|nitpick\b|(?:review|pr) (?:round|comment|feedback|note)s?\b|feedback\s*[:\-—]|(?:one|a|another) more (?:review )?(?:comment|nit|round)\b)`,
  "i",
);
const NAMED_THING = /\b(?:the|our|my|a|an)\s+([a-z][a-z0-9-]+)(?:'s)?\s+([a-z][a-z0-9-]+)\b/g;
const DEFINITE_THING = /\b(?:the|our|my)\s+([a-z][a-z0-9-]+)(?:'s)?\s+([a-z][a-z0-9-]+)\b/g;
const SCOPE_CUE = new RegExp(
  [
    String.raw`\b(?:all|any|each|none|every one|every single one) of (?:these|them|this|those|the tasks?|my tasks?)\b`,
    String.raw`\b(?:for|in|across|on) (?:every|each|all|any)(?:thing)?(?: [\w-]+){0,2}? (?:today|here|in this session|this session|from here|left)\b`,
    String.raw`\b(?:for|in|on) every(?:thing| (?:task|change|fix|commit|pr|diff|one)s?)\b`,
    String.raw`\beverything (?:you|we|in this session|today|here|left)\b|\bwhatever (?:you|we) (?:touch|change|edit|do|write|add)\b`,
    String.raw`\b(?:for|to) (?:all|every|each) (?:tasks?|changes?|fixes|commits?|prs?)\b|\bapplies to (?:everything|all)\b|\bfor anything else\b`,
  ].join("|"),
  "i",
);
const TIME_SCOPE =
  /\b(?:today|this session|(?:the )?rest of (?:the|this) (?:session|day)|rest of today|from here on|from now on|going forward|this morning|at the start)\b/i;
const RULE_CUE =
  /\b(?:rule|reminder|heads-up|general note|note for|never|always|no new|(?:don't|do not) (?:\w+ )?(?:any|anything)|keep (?:the|each|every|all|commits?|prs?|diffs?))\b/i;
const REMINDER_CUE = /\bas i (?:said|mentioned|asked)\b|\b(?:like|as) (?:i said )?before\b/i;
// "push the Count one too", "the dict one", "the hybrid name fix": a task named by what sets it apart.
const NOUN_REFERENCE = /\bthe ((?:[\w.'-]+ ){0,2}[\w.'-]+) (?:one|fix|change|task|pr|bug|issue|work|branch)\b/gi;

const STOP_WORDS = new Set(
  (
    "a an the and or but if then else when while of to in on at by for with from into onto over under as is are was were be been being " +
    "it its this that these those there here i me my we our us you your he she they them their what which who whom whose why how " +
    "do does did done doing have has had having can could should would will shall may might must not no nor so than too very just " +
    "also only again still even now please thanks thank ok okay yes yeah sure let lets let's get got make made use used using need needs " +
    "want wants like look looks see seen think know go going come back up down out off about all any some each every more most other " +
    "such same own one two new old way thing things stuff bit lot something anything everything nothing fine good great nice " +
    "work working task tasks file files code change changes fix fixes fixed bug issue issues test tests run running add added " +
    "should've don't doesn't isn't aren't can't won't it's that's there's what's i'm we're you're " +
    // Chat fillers: how people type in a terminal, not what they type about.
    "pls plz thx lgtm btw fyi imo tbh idk asap hmm ugh yep nope"
  ).split(/\s+/),
);

/**
 * Words every task of a code base uses ("request", "error", "value"): they still count, at
 * a fraction of a rarer word's weight, since a session has too few tasks to learn that.
 */
export const GENERIC_WORDS = new Set(
  (
    "request response value return error fail failure result function method class string list type data name default " +
    "option param parameter argument call user check case field column row key input output line number count size time " +
    "model config setting support handle handler server client path module package version build log message object " +
    "instead already right wrong missing empty null none true false first last next current same new old both also " +
    "small large long short still behaviour behavior expect expected actual work update remove delete create set"
  ).split(/\s+/),
);

const URL = /\b(?:https?|ftp):\/\/[^\s<>"'`)\]]+/gi;

/** The text without its web addresses: a project's URLs (its repository, its docs site) are in every task's threads. */
export function withoutUrls(text: string): string {
  return text.replace(URL, " ");
}

/** Reads the signals out of a request, or out of any text the session produced. */
export function extractSignals(text: string): Signals {
  const paths = new Set<string>();
  const workspaces = new Set<string>();
  for (const match of text.matchAll(PATH_PATTERN)) {
    const path = normalisePath(match[1] ?? "");
    if (!isPlausiblePath(path)) continue;
    if (path.startsWith("/") && !/\.[A-Za-z0-9]{1,8}$/.test(path)) workspaces.add(path);
    else paths.add(path);
  }

  const symbols = new Set<string>();
  const addSymbol = (raw: string) => {
    const symbol = raw.replace(/\(\)$/, "").toLowerCase();
    if (symbol.length >= 3 && !STOP_WORDS.has(symbol) && !paths.has(symbol)) symbols.add(symbol);
  };
  for (const span of text.matchAll(CODE_SPAN)) {
    const code = span[1] ?? "";
    if (PATH_PATTERN.test(code)) {
      PATH_PATTERN.lastIndex = 0;
      continue;
    }
    PATH_PATTERN.lastIndex = 0;
    for (const identifier of code.matchAll(IDENTIFIER)) addSymbol(identifier[0]);
    for (const flag of code.matchAll(FLAG)) symbols.add(flag[0].toLowerCase());
  }
  const prose = withoutUrls(text).replace(PATH_PATTERN, " ");
  for (const pattern of [CAMEL, SNAKE, DOTTED]) for (const match of prose.matchAll(pattern)) addSymbol(match[0]);
  for (const match of prose.matchAll(CALL)) addSymbol(match[1] ?? "");
  for (const match of text.matchAll(FLAG)) symbols.add(match[0].toLowerCase());

  const backMatch = text.match(BACK_TO) ?? text.match(BACK_REFERENCE);
  const named = [...text.matchAll(NOUN_REFERENCE)].flatMap((match) => contentWords(match[1] ?? "").filter((word) => !ORDINAL_WORDS.includes(word)));
  const backReference = [...new Set([...(backMatch ? contentWords(backMatch[1] ?? "") : []), ...named])];
  const outsideCode = text.replace(CODE_SPAN, " ");

  return {
    paths: [...paths].sort(),
    workspaces: [...workspaces].sort(),
    symbols: [...symbols].sort(),
    issueRefs: unique([...text.matchAll(ISSUE)].map((match) => `#${match[1]}`)).sort(),
    numbers: unique([...text.matchAll(NUMBER)].map((match) => `#${match[1]}`)).sort(),
    taskOrdinals: unique([
      ...[...text.matchAll(ORDINAL)].map((match) => Number(match[1])),
      ...[...text.matchAll(ORDINAL_WORD)].map((match) => ordinalValue(match[1] ?? "")),
    ]).sort((a, b) => a - b),
    taskIds: unique([...outsideCode.matchAll(TASK_ID)].filter((match) => isTaskID(match)).map((match) => `t${Number(match[1])}`)).sort(),
    quoted: unique([...text.matchAll(QUOTED)].map((match) => (match[2] ?? "").trim().toLowerCase()).filter((phrase) => phrase.split(/\s+/).length >= 2)).sort(),
    taskLabels: unique([...text.matchAll(LABEL)].map((match) => (match[1] ?? "").toLowerCase())).sort(),
    backReference: backReference.length > 0 ? backReference : null,
    sharedCue: SHARED_CUE.test(text),
    scopeCue: SCOPE_CUE.test(text),
    timeScope: TIME_SCOPE.test(text),
    ruleCue: RULE_CUE.test(text),
    reminderCue: REMINDER_CUE.test(text),
    newTaskCue: NEW_TASK_CUE.test(opening(text)),
    explicitNewTask: EXPLICIT_NEW_TASK.test(opening(text)),
    namedThings: namedThings(text, NAMED_THING),
    definiteThings: namedThings(text, DEFINITE_THING),
    reviewCue: REVIEW_CUE.test(text),
    // A path's parts are words too: "test_cookiejar.py" speaks of the cookie jar.
    words: [
      ...contentWords(withoutUrls(text).replace(PATH_PATTERN, " ")),
      ...[...paths].flatMap((path) => contentWords(basename(path).replace(/[._-]+/g, " "))),
    ],
  };
}

// How far into a request a new-task cue counts: people say "new task:" or "separately," up front.
const OPENING_WORDS = 12;

/**
 * The request's opening words: a cue for a new task is said there ("unrelated, but ..."), while
 * the same words later in a long comment are about something else ("is this an unrelated bug?",
 * "spawning a new task").
 */
function opening(text: string): string {
  return text.trimStart().split(/\s+/).slice(0, OPENING_WORDS).join(" ");
}

function namedThings(text: string, pattern: RegExp): string[] {
  const things = new Set<string>();
  for (const match of text.toLowerCase().matchAll(pattern)) {
    const words = [match[1] ?? "", match[2] ?? ""].map((word) => contentWords(word)[0]);
    if (words.every((word) => word !== undefined && !GENERIC_WORDS.has(word))) things.add(words.join(" "));
  }
  return [...things].sort();
}

/** Content words of a text: lower-cased, stop words and numbers dropped, lightly stemmed. */
export function contentWords(text: string): string[] {
  const words: string[] = [];
  // Identifiers count by their parts too: `ThemeToggle` shares "toggle" with "dark mode toggle".
  const split = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2");
  for (const match of split.toLowerCase().matchAll(/[a-z][a-z0-9]*(?:'[a-z]+)?/g)) {
    const word = stem(match[0].replace(/'s$/, ""));
    if (word.length >= 3 && !STOP_WORDS.has(word) && !STOP_WORDS.has(match[0])) words.push(word);
  }
  return words;
}

/** `t2` in lower case anywhere, `T2` only after "task" (an upper-case `T1` is usually a type name). */
function isTaskID(match: RegExpMatchArray): boolean {
  const whole = match[0];
  return whole.startsWith("t") || /task\s+$/i.test(match.input?.slice(Math.max(0, (match.index ?? 0) - 6), match.index) ?? "");
}

function ordinalValue(word: string): number {
  const lower = word.toLowerCase();
  const index = ORDINAL_WORDS.indexOf(lower);
  return index >= 0 ? index + 1 : Number.parseInt(lower, 10);
}

/** Parent directory of a path (`src/click` for `src/click/core.py`), or "" at the top. */
export function parentDirectory(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "" : path.slice(0, slash);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function stem(word: string): string {
  if (word.length > 6 && word.endsWith("ers")) return word.slice(0, -3);
  if (word.length > 6 && word.endsWith("er") && !word.endsWith("eer")) return word.slice(0, -2);
  if (word.length > 5 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed") && !word.endsWith("eed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

function normalisePath(raw: string): string {
  return raw
    .replace(/[.,;:)\]'"`]+$/, "")
    .replace(/^\.\//, "")
    .replace(/\/+$/, "");
}

function isPlausiblePath(path: string): boolean {
  if (path.length < 3 || /^\d+(\.\d+)*$/.test(path)) return false;
  if (/^(?:e\.g|i\.e|etc|vs|a\.k\.a)$/i.test(path)) return false;
  if (/^https?:/.test(path)) return false;
  // "and/or", "input/output": prose, not a path, unless it has an extension or starts at a root.
  if (!path.includes(".") && !path.startsWith("/") && !path.startsWith("~") && path.split("/").length === 2) {
    return /[_-]|^(?:src|lib|test|tests|docs|app|pkg|cmd|internal|packages|scripts|bin|config)\//.test(path);
  }
  return true;
}

function unique(values: readonly string[]): string[];
function unique(values: readonly number[]): number[];
function unique(values: readonly (string | number)[]): (string | number)[] {
  return [...new Set(values)];
}
