import { clip } from "../clip.js";
import { phrasesOf } from "./phrases.js";
import { basename, contentWords, extractSignals, parentDirectory } from "./signals.js";

const RECENT_REQUESTS = 3;
/** A word or phrase said in this many of a task's requests is one of its key words. */
const KEY_REQUESTS = 2;
const RECENT_CHARS = 400;

/** What one interaction told us about its task: the request and what its tools touched. */
export interface Evidence {
  /** The user's request text. */
  text?: string;
  /** Files the work read or changed (tool inputs, paths in commands). */
  paths?: readonly string[];
  /** Directories the work ran in. */
  workspaces?: readonly string[];
  /** Symbols seen in the work (edited code). */
  symbols?: readonly string[];
}

/** Everything the session has said about one task, accumulated group by group. */
export interface TaskProfile {
  readonly id: string;
  readonly title: string;
  /** 1-based position in opening order: what "task 2" refers to. */
  readonly ordinal: number;
  readonly words: Map<string, number>;
  /** Two-word phrases of its requests ("date parser"): a phrase names a task more surely than its words. */
  readonly phrases: Set<string>;
  /**
   * What names the task as its people say it: words of its file paths and code names, and
   * words of two or more of its requests (not a word one remark happened to use).
   */
  readonly keyWords: Set<string>;
  /** Phrases of its opening request or of two or more of its requests: "the date parser". */
  readonly keyPhrases: Set<string>;
  /**
   * What the task was opened as: two-word names its first settled request (or its title) put
   * after "the", "a", "my" ("the weekly digest"), names two of its requests used, and its files'
   * folder-and-name phrases ("cron parse" of lib/cron/parse.go).
   */
  readonly ownNames: Set<string>;
  /** In how many of its requests each word (`w:`), phrase (`p:`) and code name (`s:`) occurred. */
  readonly requestCounts: Map<string, number>;
  readonly titleWords: Set<string>;
  readonly symbols: Set<string>;
  readonly files: Set<string>;
  readonly directories: Set<string>;
  readonly workspaces: Set<string>;
  readonly absoluteFiles: Set<string>;
  readonly issueRefs: Set<string>;
  /** Names the user gave the task ("Task B"). */
  readonly labels: Set<string>;
  requests: number;
  /** Something sure says the task is real (a settled request of it): until then its title is unread and its ordinal uncertain. */
  settled: boolean;
  /** The latest few request texts, newest last, for a model router's prompt. */
  readonly recentRequests: string[];
  /** Position of the task's latest request in the session, for recency. */
  lastRequest: number;
}

/**
 * The router's memory of the session: one profile per task, updated incrementally as
 * interactions are assigned, so routing cost does not grow with the history's length.
 */
export class TaskIndex {
  private readonly profiles = new Map<string, TaskProfile>();
  /** In how many tasks each word occurs: rare words discriminate. */
  private readonly wordTasks = new Map<string, number>();
  private readonly symbolTasks = new Map<string, number>();
  private readonly phraseTasks = new Map<string, number>();
  private readonly fileTasks = new Map<string, Set<string>>();
  private requestCounter = 0;
  /** The tasks each own name (by `nameKey`) belongs to. */
  private readonly ownNameTasks = new Map<string, Set<string>>();
  /** Tasks that take no more requests (split out into their own session): no longer candidates, their ordinals kept. */
  private readonly closed = new Set<string>();
  /** The task of the latest routed request. */
  current: string | undefined;

  get size(): number {
    return this.profiles.size;
  }

  tasks(): TaskProfile[] {
    const profiles = [...this.profiles.values()];
    return this.closed.size === 0 ? profiles : profiles.filter((profile) => !this.closed.has(profile.id));
  }

  task(id: string): TaskProfile | undefined {
    return this.closed.has(id) ? undefined : this.profiles.get(id);
  }

  /** A task that takes no more requests: no router sees it again, and later evidence for it is not folded in. */
  closeTask(id: string): void {
    this.closed.add(id);
    if (this.current === id) this.current = undefined;
  }

  /**
   * A task the session has; `settled: false` for one an unsure decision opened, whose title
   * words stay unread until something sure says the task is real (its first evidence).
   */
  addTask(id: string, title: string, options: { settled?: boolean } = {}): TaskProfile {
    const existing = this.profiles.get(id);
    if (existing) {
      if (options.settled !== false) this.readTitle(existing);
      return existing;
    }
    const profile: TaskProfile = {
      id,
      title,
      ordinal: this.profiles.size + 1,
      words: new Map(),
      phrases: new Set(),
      keyWords: new Set(),
      keyPhrases: new Set(),
      ownNames: new Set(),
      requestCounts: new Map(),
      titleWords: new Set(options.settled === false ? [] : contentWords(title)),
      symbols: new Set(),
      files: new Set(),
      directories: new Set(),
      workspaces: new Set(),
      absoluteFiles: new Set(),
      issueRefs: new Set(),
      labels: new Set(),
      requests: 0,
      settled: options.settled !== false,
      recentRequests: [],
      lastRequest: 0,
    };
    this.profiles.set(id, profile);
    if (profile.settled) for (const name of extractSignals(title).definiteThings) this.addOwnName(profile, name);
    return profile;
  }

  /** Folds one interaction's evidence into its task (the task must exist). */
  addEvidence(taskID: string, evidence: Evidence): void {
    const profile = this.profiles.get(taskID);
    if (!profile) throw new Error(`unknown task ${taskID}`);
    this.readTitle(profile);
    const paths: string[] = [...(evidence.paths ?? [])];
    const workspaces: string[] = [...(evidence.workspaces ?? [])];
    const symbols: string[] = [...(evidence.symbols ?? [])];
    if (evidence.text !== undefined) {
      const signals = extractSignals(evidence.text);
      paths.push(...signals.paths);
      workspaces.push(...signals.workspaces);
      symbols.push(...signals.symbols);
      for (const ref of signals.issueRefs) profile.issueRefs.add(ref);
      for (const label of signals.taskLabels) profile.labels.add(label);
      for (const word of signals.words) {
        const count = profile.words.get(word) ?? 0;
        if (count === 0) this.wordTasks.set(word, (this.wordTasks.get(word) ?? 0) + 1);
        profile.words.set(word, count + 1);
      }
      const phrases = phrasesOf(evidence.text);
      for (const phrase of phrases) {
        if (profile.requests === 0) profile.keyPhrases.add(phrase);
        if (profile.phrases.has(phrase)) continue;
        profile.phrases.add(phrase);
        this.phraseTasks.set(phrase, (this.phraseTasks.get(phrase) ?? 0) + 1);
      }
      for (const name of signals.definiteThings) {
        const count = (profile.requestCounts.get(`n:${name}`) ?? 0) + 1;
        profile.requestCounts.set(`n:${name}`, count);
        if (profile.requests === 0 || count >= KEY_REQUESTS) this.addOwnName(profile, name);
      }
      // What a task's requests keep saying is what its people call it.
      for (const symbol of new Set(signals.symbols)) profile.requestCounts.set(`s:${symbol}`, (profile.requestCounts.get(`s:${symbol}`) ?? 0) + 1);
      for (const item of [...new Set(signals.words)].map((word) => `w:${word}`).concat(phrases.map((phrase) => `p:${phrase}`))) {
        const count = (profile.requestCounts.get(item) ?? 0) + 1;
        profile.requestCounts.set(item, count);
        if (count < KEY_REQUESTS) continue;
        if (item.startsWith("w:")) profile.keyWords.add(item.slice(2));
        else profile.keyPhrases.add(item.slice(2));
      }
      profile.requests += 1;
      profile.recentRequests.push(clip(evidence.text, RECENT_CHARS, { ellipsisIs: "extra" }));
      if (profile.recentRequests.length > RECENT_REQUESTS) profile.recentRequests.shift();
      profile.lastRequest = ++this.requestCounter;
    }
    for (const path of paths) this.addPath(profile, path);
    for (const workspace of workspaces) profile.workspaces.add(workspace);
    for (const symbol of symbols) {
      if (profile.symbols.has(symbol)) continue;
      profile.symbols.add(symbol);
      for (const word of contentWords(symbol.replace(/[_.-]+/g, " "))) profile.keyWords.add(word);
      this.symbolTasks.set(symbol, (this.symbolTasks.get(symbol) ?? 0) + 1);
    }
  }

  /** Marks a request as seen without folding it into a task (shared instructions). */
  countRequest(): void {
    this.requestCounter += 1;
  }

  wordTaskCount(word: string): number {
    return this.wordTasks.get(word) ?? 0;
  }

  phraseTaskCount(phrase: string): number {
    return this.phraseTasks.get(phrase) ?? 0;
  }

  symbolTaskCount(symbol: string): number {
    return this.symbolTasks.get(symbol) ?? 0;
  }

  /** The tasks whose own name is the phrase, in a form of its words ("cron parser" for "cron parse"). */
  tasksNamed(phrase: string): TaskProfile[] {
    const owners = this.ownNameTasks.get(nameKey(phrase));
    if (!owners) return [];
    return [...owners].flatMap((id) => this.task(id) ?? []);
  }

  /** True if some task touched a file with this name, in any directory. */
  knowsFileNamed(name: string): boolean {
    return this.fileTasks.has(name);
  }

  /** Tasks whose files include `path` (same file, compared by trailing path components). */
  tasksWithFile(path: string): TaskProfile[] {
    const candidates = this.fileTasks.get(basename(path));
    if (!candidates) return [];
    const result: TaskProfile[] = [];
    for (const id of candidates) {
      const profile = this.task(id);
      if (profile && [...profile.files].some((file) => samePath(file, path))) result.push(profile);
    }
    return result;
  }

  /** Tasks that worked in `directory` or under it, or whose workspace contains it. */
  tasksInWorkspace(directory: string): TaskProfile[] {
    return this.tasks().filter(
      (profile) =>
        [...profile.workspaces].some(
          (workspace) => workspace === directory || directory.startsWith(`${workspace}/`) || workspace.startsWith(`${directory}/`),
        ) || [...profile.absoluteFiles].some((file) => file.startsWith(`${directory}/`)),
    );
  }

  private addOwnName(profile: TaskProfile, name: string): void {
    if (profile.ownNames.has(name)) return;
    profile.ownNames.add(name);
    const key = nameKey(name);
    let owners = this.ownNameTasks.get(key);
    if (!owners) {
      owners = new Set();
      this.ownNameTasks.set(key, owners);
    }
    owners.add(profile.id);
  }

  private readTitle(profile: TaskProfile): void {
    if (profile.settled) return;
    profile.settled = true;
    for (const word of contentWords(profile.title)) profile.titleWords.add(word);
    for (const name of extractSignals(profile.title).definiteThings) this.addOwnName(profile, name);
  }

  private addPath(profile: TaskProfile, path: string): void {
    if (path.startsWith("/")) profile.absoluteFiles.add(path);
    if (profile.files.has(path)) return;
    profile.files.add(path);
    // "run the accounts tests" names accounts/urls.py's task: path parts count as its words.
    for (const word of contentWords(path.startsWith("/") ? basename(path).replace(/[._-]+/g, " ") : path.replace(/[/._-]+/g, " "))) {
      profile.keyWords.add(word);
      if (!profile.words.has(word)) {
        this.wordTasks.set(word, (this.wordTasks.get(word) ?? 0) + 1);
        profile.words.set(word, 1);
      }
    }
    const directory = parentDirectory(path);
    if (directory !== "") profile.directories.add(directory);
    // A file names its part of the work as its folder and name say: lib/cron/parse.go, "cron parse".
    for (const phrase of phrasesOf(`${basename(directory)} ${basename(path).replace(/\.[^.]*$/, "")}`.replace(/[._-]+/g, " ")))
      this.addOwnName(profile, phrase);
    const name = basename(path);
    let owners = this.fileTasks.get(name);
    if (!owners) {
      owners = new Set();
      this.fileTasks.set(name, owners);
    }
    owners.add(profile.id);
  }
}

const NAME_ENDINGS = ["ers", "ing", "er", "or", "ed", "es", "e", "s"];

/** A name's words without their last ending, so that "cron parser" and "cron parse" are one name. */
function nameKey(name: string): string {
  return name
    .split(" ")
    .map((word) => {
      const ending = NAME_ENDINGS.find((candidate) => word.endsWith(candidate) && word.length - candidate.length >= 4);
      return ending ? word.slice(0, -ending.length) : word;
    })
    .join(" ");
}

/** Same file if one path is the other with leading directories (a checkout root) added. */
export function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}
