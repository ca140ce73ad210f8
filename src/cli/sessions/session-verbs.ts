import { homedir } from "node:os";
import { resolve } from "node:path";
import { messageOf } from "../../kit/errors/message-of.js";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { loadOptions } from "../../plugin/config/load-options.js";
import type { Options } from "../../plugin/config/options-schema.js";
import type { Ledger } from "../../plugin/core/routing/ledger.js";
import { describeMove, moveFromWords, requestNumberRuns, requestNumbersText } from "../../plugin/session-views/move-selection.js";
import { type ReadVerb, rcmVerb } from "../../plugin/session-views/rcm-verbs.js";
import { taskRows } from "../../plugin/session-views/render-status.js";
import { splitFromWords } from "../../plugin/session-views/split-selection.js";
import { plural } from "../../plugin/session-views/words.js";
import { quoted, type SessionChooser } from "../../plugin/store/on-screen-session.js";
import { projectFile } from "../../plugin/store/project-file.js";
import { liveScreenMarkers } from "../../plugin/store/screen-markers.js";
import { pendingIntents, postIntent, type SessionIntent } from "../../plugin/store/session-inbox.js";
import { readSessionTitles } from "../../plugin/store/session-titles.js";
import { findSession, projectStateDir, type StoredSession, storedSessions } from "../../plugin/store/stored-sessions.js";
import { sessionHeading } from "./session-heading.js";

/** Where the CLI looks: the project of `directory`, with the options its rcm.jsonc files and RCM_* variables give. */
export interface SessionScope {
  directory: string;
  stateDir?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  now?: Date;
  /** Asks which session when two TUIs here were used at the same time (a terminal); none: an error lists them. */
  choose?: SessionChooser | undefined;
}

const LISTED_SESSIONS = 10;
const CLI_WORDS = { onCommand: "opencode-rcm on", showCommand: (task: string, asModel: boolean) => `opencode-rcm show ${task}${asModel ? " --as-model" : ""}` };

/** `opencode-rcm sessions`: the project's recent sessions with their tasks. */
export async function sessionsCommand(scope: SessionScope, options: { all?: boolean } = {}): Promise<string> {
  const { stateDir } = await openScope(scope);
  const { sessions, problems } = await storedSessions(stateDir);
  if (sessions.length === 0) return `No sessions yet in ${stateDir}.\n`;
  const [titles, markers] = await Promise.all([readSessionTitles(stateDir), liveScreenMarkers(stateDir)]);
  const shown = options.all ? sessions : sessions.slice(0, LISTED_SESSIONS);
  const now = scope.now ?? new Date();
  const lines = [`Sessions of ${stateDir} (most recent first${shown.length < sessions.length ? `; ${sessions.length - shown.length} more with --all` : ""}):`];
  for (const session of shown) {
    const { ledger, off } = session.state;
    const requests = ledger.order.length;
    const shownIn = markers.find((marker) => marker.sessionID === session.sessionID);
    const title = quoted(shownIn?.title ?? titles[session.sessionID]?.title);
    lines.push(
      `${session.sessionID}  ${ago(session.modified, now)}  ${requests} request${requests === 1 ? "" : "s"}, ${plural(taskRows(ledger).length, "task")}${off ? "  (off)" : ""}  ${title}${shownIn ? "  (on screen in a TUI)" : ""}`,
    );
    for (const row of taskRows(ledger))
      lines.push(`  ${row.current ? "*" : " "} ${row.id.padEnd(4)} ${requestNumberRuns(row.numbers).padEnd(10)} ${row.title}`);
  }
  for (const problem of problems) lines.push(`unreadable (left as it is): ${problem}`);
  return `${lines.join("\n")}\n`;
}

/**
 * `opencode-rcm <verb> [session] [task]` for a reading /rcm verb (status, why, tasks, show...):
 * its answer, plus what waits for OpenCode. `as: "model"`: `show --as-model`, the text the model gets.
 */
export async function readVerbCommand(
  scope: SessionScope,
  wanted: string | undefined,
  verb: ReadVerb,
  task?: string,
  as: "person" | "model" = "person",
): Promise<string> {
  const { stateDir, options } = await openScope(scope);
  const session = await findSession({ stateDir, wanted, choose: scope.choose });
  let answer: string;
  try {
    answer = verb.answer({ options, state: session.state, words: CLI_WORDS, as }, task);
  } catch (error) {
    // What the session lacks (a task id it does not have): the user's to fix, not a bug.
    throw new RcmError("session", `session ${session.sessionID}: ${messageOf(error)}`, { cause: error });
  }
  return `${sessionHeading(session)}\n${answer}\n${await waiting(stateDir, session)}`;
}

/** `opencode-rcm status [session]`: as /rcm status shows it, plus what waits for OpenCode. */
export function statusCommand(scope: SessionScope, wanted: string | undefined): Promise<string> {
  return readVerbCommand(scope, wanted, readVerb("status"));
}

/** `opencode-rcm why [session]`: what the session's last model call received. */
export function whyCommand(scope: SessionScope, wanted: string | undefined): Promise<string> {
  return readVerbCommand(scope, wanted, readVerb("why"));
}

function readVerb(name: string): ReadVerb {
  const verb = rcmVerb(name);
  if (verb?.kind !== "read") throw new Error(`/rcm ${name} is not a reading verb`);
  return verb;
}

/** `opencode-rcm move [session] [requests] <task|new>`: requests of the session (by default the last routed one) belong to another task. */
export async function moveCommand(scope: SessionScope, wanted: string | undefined, words: readonly string[]): Promise<string> {
  const { stateDir } = await openScope(scope);
  const session = await findSession({ stateDir, wanted, choose: scope.choose });
  const { ledger } = session.state;
  const move = moveFromWords(ledger, words);
  if ("problem" in move) throw new RcmError("session", `session ${session.sessionID}: ${move.problem}`);
  await postIntent(stateDir, session.sessionID, move);
  const to = move.target.kind === "new" ? "a new task" : move.target.task;
  return `${sessionHeading(session)}\nIn session ${session.sessionID}, ${describeMove(ledger, move, to)}; nothing else moves (a request whose edits are in their files stays where it is: opencode-rcm status lists it).\n${APPLIED_WHEN}\n`;
}

/** `opencode-rcm split [session] <task>`: the task goes on in a new OpenCode session, which the server opens. */
export async function splitCommand(scope: SessionScope, wanted: string | undefined, task: string): Promise<string> {
  const { stateDir } = await openScope(scope);
  const session = await findSession({ stateDir, wanted, choose: scope.choose });
  const split = splitFromWords(session.state.ledger, [task]);
  if ("problem" in split) throw new RcmError("session", `session ${session.sessionID}: ${split.problem}`);
  await postIntent(stateDir, session.sessionID, split);
  return `${sessionHeading(session)}\nIn session ${session.sessionID}, ${split.task} goes on in a new OpenCode session seeded with its record and requests; this session routes no more requests to it.\n${APPLIED_WHEN}\n`;
}

/** `opencode-rcm off|on [session]`. */
export async function switchCommand(scope: SessionScope, wanted: string | undefined, off: boolean): Promise<string> {
  const { stateDir } = await openScope(scope);
  const session = await findSession({ stateDir, wanted, choose: scope.choose });
  await postIntent(stateDir, session.sessionID, { kind: off ? "off" : "on" });
  const what = off ? "off for this session: the model gets the native history" : "on again for this session";
  return `${sessionHeading(session)}\nopencode-rcm turns ${what} (session ${session.sessionID}).\n${APPLIED_WHEN}\n`;
}

export const APPLIED_WHEN =
  "OpenCode applies it at the session's next request (the state file is its own while it runs); until then, opencode-rcm status shows it as waiting.";

/**
 * The project's state folder and the options to speak with: the server part's, as it noted
 * them in project.json (the opencode.json tuple included), else the rcm.jsonc files' and RCM_*.
 */
export async function openScope(scope: SessionScope): Promise<{ stateDir: string; options: Options }> {
  const directory = resolve(scope.directory);
  const { options } = await loadOptions({ tuple: undefined, directory, worktree: directory, env: scope.env, home: homedir() });
  const stateDir = await projectStateDir({ directory, stateDir: scope.stateDir ?? options.stateDir, env: scope.env, home: homedir() });
  const noted = await projectFile(stateDir).peek();
  const settings = noted.status === "loaded" ? noted.value.settings : undefined;
  return { stateDir, options: settings ? { ...options, ...settings } : options };
}

async function waiting(stateDir: string, session: StoredSession): Promise<string> {
  const intents = await pendingIntents(stateDir, session.sessionID);
  if (intents.length === 0) return "";
  return `Waiting for OpenCode to apply (at the session's next request): ${intents.map(({ intent }) => describeIntent(intent, session.state.ledger)).join("; ")}\n`;
}

function describeIntent(intent: SessionIntent, ledger: Ledger): string {
  if (intent.kind === "move")
    return `move ${requestNumbersText(
      ledger,
      intent.requests.map((request) => request.messageID),
    )} to ${intent.target.kind === "new" ? "a new task" : intent.target.task}`;
  if (intent.kind === "split") return `split ${intent.task} into a new session`;
  if (intent.kind === "resume") return `resume ${intent.key} here`;
  return `switch ${intent.kind}`;
}

function ago(when: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - when.getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`.padEnd(12);
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`.padEnd(12);
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`.padEnd(12);
  return when.toISOString().slice(0, 10).padEnd(12);
}
