import { type Mode, modeParts } from "../config/modes.js";
import { clip } from "../core/clip.js";
import { taskName } from "../core/memory/task-name.js";
import type { ResumedFrom } from "../core/routing/ledger.js";
import type { ResumeOffer, SessionState } from "../store/session-state-file.js";
import type { UnfinishedTask } from "../store/unfinished-tasks.js";
import { agoText } from "./words.js";

/**
 * The earlier sessions' unfinished tasks as every surface shows and picks them (`/rcm resume`,
 * `/rcm done`, `/rcm-text`, the CLI): one numbering (the list's order: most recently active
 * first), one way to name a task, one set of words. Pure: the callers read the list
 * (store/unfinished-tasks.ts, with the tasks other sessions took) and act on the choice.
 */

/** A task title's share of a list row or a toast. */
const TITLE_CHARS = 50;

/** Why `/rcm resume` does nothing in this mode, if it does not: a resumed task brings its record, which only memory keeps. */
export function resumeNeedsMemory(mode: Mode): string | undefined {
  if (modeParts(mode).remembers) return undefined;
  return `Resuming a task of an earlier session needs modes memory or full: its memory record is what carries it into this session, and mode ${mode} keeps none.`;
}

/** An earlier session as a person knows it: its title, quoted, else its id. */
export function sessionName(title: string | undefined, sessionID: string): string {
  return title !== undefined && title.trim() !== "" ? JSON.stringify(title) : `session ${sessionID}`;
}

/** `<session>/<task>`: how the inbox, the marks and a typed verb name an earlier task. */
export function earlierKey(task: Pick<UnfinishedTask, "sessionID" | "taskId">): string {
  return `${task.sessionID}/${task.taskId}`;
}

/** A TUI picker's rows for `/rcm resume`: every earlier task, numbered as the typed list numbers them; a taken one cannot be picked. */
export function resumeChoices(tasks: readonly UnfinishedTask[], now: Date): { title: string; value: string; description: string; disabled?: boolean }[] {
  return tasks.map((task, index) => ({ ...earlierRow(task, index + 1, now), value: earlierKey(task), ...(takenElsewhere(task) ? { disabled: true } : {}) }));
}

/** A TUI picker's rows for `/rcm done` and `drop`: this session's tasks (`t2`), then the earlier sessions' that nobody took. */
export function markChoices(
  state: SessionState | undefined,
  tasks: readonly UnfinishedTask[],
  now: Date,
): { title: string; value: string; description: string }[] {
  const own = (state?.ledger.tasks ?? [])
    .filter((task) => !task.split)
    .map((task) => ({ title: `${task.id} ${clip(taskName(task.title), TITLE_CHARS)}`, value: task.id, description: "this session" }));
  const earlier = tasks.flatMap((task, index) => (task.takenBy ? [] : [{ ...earlierRow(task, index + 1, now), value: earlierKey(task) }]));
  return [...own, ...earlier];
}

/** One picker row: its number and task, then its session, age and pending asks (or who took it). */
function earlierRow(task: UnfinishedTask, number: number, now: Date): { title: string; description: string } {
  const where = `${sessionName(task.sessionTitle, task.sessionID)} · ${agoText(task.lastActive, now)}`;
  return {
    title: `${number}. ${task.taskId} ${clip(taskName(task.taskTitle), TITLE_CHARS)}`,
    description: task.takenBy
      ? `${where} · taken by ${task.takenBy}`
      : task.inUseBy !== undefined
        ? `${where} · in use in another OpenCode (pid ${task.inUseBy})`
        : `${where} · ${task.pending} pending`,
  };
}

/** What to type next under the list a typed `/rcm resume`, `/rcm done` or `/rcm drop` shows in a TUI. */
export function earlierHint(verb: { name: string; kind: string; mark?: string }): string {
  return verb.kind === "change" ? "/rcm resume <n> resumes one here" : `/rcm ${verb.name} <n> marks one ${verb.mark}; /rcm ${verb.name} t2: this session's t2`;
}

/** The numbered list a typed `/rcm resume`, `/rcm-text resume` and `opencode-rcm resume` answer with; `hint`: what to type next. */
export function earlierListText(tasks: readonly UnfinishedTask[], now: Date, hint: string): string {
  if (tasks.length === 0) return "No unfinished task in an earlier session of this project (within the options resume.maxAgeDays and resume.maxTasks).";
  return [
    `Unfinished tasks of earlier sessions (most recently active first; ${hint}):`,
    ...tasks.map((task, index) => {
      const row = earlierRow(task, index + 1, now);
      return `  ${row.title} · ${row.description}  [${earlierKey(task)}]`;
    }),
  ].join("\n");
}

/**
 * The earlier task the words name: its number in the list, `<session>/<task>` (a unique start of
 * the session's id will do), or a task id alone when only one untaken task has it (the one the
 * latest request offered, when it offered one with that id). A taken task is refused.
 */
export function pickEarlier(tasks: readonly UnfinishedTask[], word: string, offer?: ResumeOffer): { task: UnfinishedTask } | { problem: string } {
  const keys = () => tasks.map(earlierKey).join(", ") || "none";
  let found: UnfinishedTask | undefined;
  if (/^\d+$/.test(word)) {
    found = tasks[Number(word) - 1];
    if (!found) return { problem: `no task ${word} in the list: it has ${tasks.length === 0 ? "none" : `1 to ${tasks.length}`}` };
  } else if (word.includes("/")) {
    const slash = word.lastIndexOf("/");
    const [session, taskId] = [word.slice(0, slash), word.slice(slash + 1)];
    const matches = tasks.filter((task) => task.taskId === taskId && task.sessionID.startsWith(session));
    if (matches.length > 1) return { problem: `${word} names several tasks (${matches.map(earlierKey).join(", ")}): give more of the session id` };
    found = matches[0];
    if (!found) return { problem: `no unfinished task ${word} in an earlier session (there are: ${keys()})` };
  } else {
    const matches = tasks.filter((task) => task.taskId === word && !takenElsewhere(task));
    const offered = offer && matches.find((task) => task.sessionID === offer.session && task.taskId === offer.task);
    if (matches.length > 1 && !offered)
      return {
        problem: `${word} is a task of several earlier sessions: name one by its number or as <session>/<task> (${matches.map(earlierKey).join(", ")})`,
      };
    found = offered ?? matches[0];
    if (!found) return { problem: `no unfinished task ${word} in an earlier session (there are: ${keys()})` };
  }
  if (found.takenBy) return { problem: `${earlierKey(found)} is taken: session ${found.takenBy} resumed it (it goes on there)` };
  if (found.inUseBy !== undefined)
    return { problem: `${earlierKey(found)} is in use: its session is open in another OpenCode of this project (pid ${found.inUseBy}); go on there` };
  return { task: found };
}

/** Another session resumed it, or another running OpenCode works in its session: it goes on there, never here. */
function takenElsewhere(task: UnfinishedTask): boolean {
  return task.takenBy !== undefined || task.inUseBy !== undefined;
}

/** The task a `done` or `drop` marks: this session's (`t2`) or an earlier session's (its number or `<session>/<task>`). */
export interface MarkTarget {
  sessionID: string;
  taskId: string;
  title: string;
  /** An earlier session's task, not this session's own. */
  earlier: boolean;
}

export function markTarget(options: {
  sessionID: string;
  state: SessionState | undefined;
  earlier: readonly UnfinishedTask[];
  word: string | undefined;
  offer?: ResumeOffer | undefined;
}): MarkTarget | { problem: string } {
  const { sessionID, state, earlier, word } = options;
  if (word === undefined) return { problem: "which task? t2 for this session's, <n> or <session>/<task> for an earlier session's" };
  const own = state?.ledger.tasks.find((task) => task.id === word.toLowerCase());
  if (/^t\d+$/i.test(word) && own) {
    if (own.split) return { problem: `${own.id} goes on in session ${own.split.session}: mark it there` };
    return { sessionID, taskId: own.id, title: own.title, earlier: false };
  }
  if (/^t\d+$/i.test(word)) {
    const known = state?.ledger.tasks.map((task) => task.id).join(", ") || "none yet";
    return { problem: `no task ${word} in this session (its tasks: ${known}); an earlier session's: <n> or <session>/<task>` };
  }
  const picked = pickEarlier(earlier, word, options.offer);
  if ("problem" in picked) return picked;
  return { sessionID: picked.task.sessionID, taskId: picked.task.taskId, title: picked.task.taskTitle, earlier: true };
}

/** What a `done` or `drop` did, in one sentence. */
export function markedText(target: MarkTarget, mark: "done" | "dropped"): string {
  const what = `${target.taskId} "${clip(taskName(target.title), TITLE_CHARS)}"`;
  if (!target.earlier) return `${what} of this session is marked ${mark}: no later session offers to resume it.`;
  return `${what} of ${target.sessionID} is marked ${mark}: no session offers to resume it any more.`;
}

/** Where a resumed task came from, in a few words: `from "Exporter fixes" · 2 days ago · 3 pending`. */
export function resumedOrigin(from: ResumedFrom, now: Date): string {
  return `from ${sessionName(from.sessionTitle, from.session)} · ${agoText(new Date(from.lastActive), now)} · ${from.pending} pending`;
}

/** The same in a sentence, for `/rcm status` and `/rcm why`. */
export function resumedSentence(task: { id: string; resumed: ResumedFrom }, now: Date): string {
  const { resumed: from } = task;
  const how = from.by === "user" ? "you resumed it" : "a request named it";
  const itsId = from.task === task.id ? "" : ` (its ${from.task} there)`;
  return `${task.id} goes on from ${sessionName(from.sessionTitle, from.session)}${itsId}, last worked on there ${agoText(new Date(from.lastActive), now)}, ${from.pending} pending then; ${how}.`;
}

/** What resuming a task did, in one sentence: `when` the record goes ("with the next request"). */
export function resumedText(task: { id: string; title: string; resumed?: ResumedFrom | undefined }, now: Date, when: string): string {
  const from = task.resumed;
  const where = from ? ` from ${sessionName(from.sessionTitle, from.session)} (${agoText(new Date(from.lastActive), now)}, ${from.pending} pending)` : "";
  return `Resumed ${task.id} "${clip(taskName(task.title), TITLE_CHARS)}"${where}: its record goes ${when}.`;
}

/** What a TUI or the CLI says once a resumption is posted: the task and its session, and when its record comes. */
export function resumePostedText(task: UnfinishedTask, command: string): string {
  return `${command}: ${task.taskId} "${clip(taskName(task.taskTitle), TITLE_CHARS)}" of ${sessionName(task.sessionTitle, task.sessionID)} goes on here; its record comes with the next request.`;
}
