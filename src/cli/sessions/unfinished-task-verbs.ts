import { RcmError } from "../../kit/errors/rcm-error.js";
import { plural } from "../../plugin/session-views/words.js";
import { quoted } from "../../plugin/store/on-screen-session.js";
import { findSession } from "../../plugin/store/stored-sessions.js";
import { markTask, type TaskMarkKind } from "../../plugin/store/task-marks.js";
import { type UnfinishedTask, unfinishedTasks } from "../../plugin/store/unfinished-tasks.js";
import { sessionHeading } from "./session-heading.js";
import { openScope, type SessionScope } from "./session-verbs.js";

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
  return [`${key}  ${ago(task.lastActive, now)}  ${status}  session ${quoted(task.sessionTitle)}`, `    ${task.taskTitle}`];
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

function ago(when: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - when.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} days ago`;
}
