import { RcmError } from "../../kit/errors/rcm-error.js";
import { taskName } from "../../plugin/core/memory/task-name.js";
import { earlierListText, resumeNeedsMemory, sessionName } from "../../plugin/session-views/earlier-tasks.js";
import { rcmVerb } from "../../plugin/session-views/rcm-verbs.js";
import { agoText, plural } from "../../plugin/session-views/words.js";
import { quoted } from "../../plugin/store/on-screen-session.js";
import { postIntent } from "../../plugin/store/session-inbox.js";
import { findSession } from "../../plugin/store/stored-sessions.js";
import { markTask, type TaskMarkKind } from "../../plugin/store/task-marks.js";
import { earlierSessionsTasks, type UnfinishedTask, unfinishedTasks } from "../../plugin/store/unfinished-tasks.js";
import { sessionHeading } from "./session-heading.js";
import { APPLIED_WHEN, openScope, type SessionScope } from "./session-verbs.js";

/**
 * `opencode-rcm tasks --all`: the project's unfinished tasks across its sessions (within the
 * resume options' bounds), the most recently active first, each with the command that marks it.
 */
export async function unfinishedTasksCommand(scope: SessionScope): Promise<string> {
  const { stateDir, options } = await openScope(scope);
  const now = scope.now ?? new Date();
  const { tasks, beyond, olderSessions, problems } = await unfinishedTasks({ stateDir, now, ...options.resume });
  const lines =
    tasks.length === 0
      ? [`No unfinished tasks in ${stateDir}.`]
      : [
          `Unfinished tasks of ${stateDir} (most recently active first; opencode-rcm done|drop <session>/<task> marks one):`,
          ...tasks.flatMap((task) => taskLines(task, now)),
        ];
  if (beyond > 0) {
    const { maxAgeDays, maxTasks } = options.resume;
    lines.push(`${beyond} more not listed: older than ${maxAgeDays} days or past the first ${maxTasks} (options resume.maxAgeDays, resume.maxTasks).`);
  }
  if (olderSessions > 0) {
    lines.push(`${plural(olderSessions, "session")} last written more than ${options.resume.maxAgeDays} days ago not read (option resume.maxAgeDays).`);
  }
  for (const problem of problems) lines.push(`unreadable (left as it is): ${problem}`);
  return `${lines.join("\n")}\n`;
}

function taskLines(task: UnfinishedTask, now: Date): string[] {
  const key = `${task.sessionID}/${task.taskId}`;
  const status = task.allDone
    ? `every ask done: opencode-rcm done ${key} closes it`
    : task.pending === 0
      ? "unfinished, nothing pending in its record"
      : `unfinished, ${task.pending} pending`;
  return [`${key}  ${agoText(task.lastActive, now)}  ${status}  session ${quoted(task.sessionTitle)}`, `    ${task.taskTitle}`];
}

/**
 * `opencode-rcm done|drop [<session>/]<task>`: marks a task of a session done or dropped; the
 * session as every session command finds it (an id, a unique start of one, latest; none: the
 * one on screen). Only the marks file changes: a running OpenCode keeps its state file.
 */
export async function markTaskCommand(scope: SessionScope, target: string, mark: TaskMarkKind): Promise<string> {
  const slash = target.lastIndexOf("/");
  const wanted = slash >= 0 ? target.slice(0, slash) || undefined : undefined;
  const taskId = target.slice(slash + 1);
  if (taskId === "") throw new RcmError("usage", `${mark === "done" ? "done" : "drop"} takes [<session>/]<task>, got ${target}`);
  const { stateDir } = await openScope(scope);
  const session = await findSession({ stateDir, wanted, choose: scope.choose });
  const task = session.state.ledger.tasks.find((known) => known.id === taskId);
  if (!task) {
    const known = session.state.ledger.tasks.map((known) => known.id).join(", ") || "none yet";
    throw new RcmError("session", `session ${session.sessionID} has no task ${taskId} (its tasks: ${known})`);
  }
  await markTask(stateDir, { sessionID: session.sessionID, taskId, mark, at: scope.now ?? new Date() });
  const what = mark === "done" ? "done" : "dropped";
  return `${sessionHeading(session)}\n${session.sessionID}/${taskId} ${quoted(task.title)} is marked ${what}: opencode-rcm tasks --all no longer lists it.\n`;
}

/**
 * `opencode-rcm resume [<session>] [<n>|<task>|<session>/<task>]`: an earlier session's
 * unfinished task goes on in the session (as the other session commands find it; none: the one
 * on screen), posted to its inbox as the TUI's /rcm resume posts it. With no task: the list.
 */
export async function resumeCommand(scope: SessionScope, wanted: string | undefined, words: readonly string[]): Promise<string> {
  const { stateDir, options } = await openScope(scope);
  const needs = resumeNeedsMemory(options.mode);
  if (needs) throw new RcmError("session", needs);
  const session = await findSession({ stateDir, wanted, choose: scope.choose });
  const now = scope.now ?? new Date();
  const earlier = await earlierSessionsTasks({ stateDir, sessionID: session.sessionID, resume: options.resume, now });
  if (words.length === 0) return `${sessionHeading(session)}\n${earlierListText(earlier, now, "opencode-rcm resume <n> resumes one in this session")}\n`;
  const verb = rcmVerb("resume");
  if (verb?.kind !== "change") throw new Error("resume is a changing verb");
  const intent = verb.intent(session.state, words, { sessionID: session.sessionID, earlier });
  if ("problem" in intent) throw new RcmError("session", `session ${session.sessionID}: ${intent.problem}`);
  if (intent.kind !== "resume") throw new Error("resume made no resumption");
  await postIntent(stateDir, session.sessionID, intent);
  const task = earlier.find((known) => `${known.sessionID}/${known.taskId}` === intent.key);
  const what = task ? `${task.taskId} "${taskName(task.taskTitle)}" of ${sessionName(task.sessionTitle, task.sessionID)}` : intent.key;
  return `${sessionHeading(session)}\nIn session ${session.sessionID}, ${what} goes on: its record comes with the session's next request.\n${APPLIED_WHEN}\n`;
}
