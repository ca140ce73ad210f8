import type { Options } from "../config/options-schema.js";
import { taskName } from "../core/memory/task-name.js";
import { earlierListText, markedText, resumedText, resumeNeedsMemory } from "../session-views/earlier-tasks.js";
import { moveSideEffectLines, requestNumbersText } from "../session-views/move-selection.js";
import { RCM_VERB_LIST, RCM_VERBS, rcmVerb } from "../session-views/rcm-verbs.js";
import { describeDecision, renderStatus } from "../session-views/render-status.js";
import { parseTypedVerb } from "../session-views/typed-verb.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { VerbDispatcher } from "../sessions/verb-dispatcher.js";
import { markTask } from "../store/task-marks.js";
import { earlierSessionsTasks } from "../store/unfinished-tasks.js";

/**
 * The server's command, for clients without the TUI part (web, desktop, `opencode run`). Not
 * `rcm`: the TUI sends a typed `/rcm ...` to a server command of that name before its own,
 * and the TUI part's `/rcm` runs with no request that can fail.
 */
export const RCM_COMMAND = "rcm-text";

/** The usage, from the verbs' list: a verb added there is listed here. */
export const RCM_USAGE = RCM_VERBS.map((verb) => `${`/${RCM_COMMAND} ${verb.name}${verb.argument ? ` ${verb.argument}` : ""}`.padEnd(28)}${verb.help}`).join(
  "\n",
);

/** What OpenCode 1.18 imposes on these commands and toasts, said where the usage is (README's troubleshooting has the same). */
const OPENCODE_LIMITS = [
  "OpenCode 1.18 limits, expected:",
  `- each /${RCM_COMMAND} (and typed /rcm) ends with an error once answered: an ERROR "CommandAnswered: expected, not a failure" log line and HTTP 500 to the client (1.18 has no "handled" flag)`,
  "- toasts sit at the top right, under the sidebar on a narrow screen (a plug-in cannot place them): the task panel shows the same",
  "- typing /rcm lists the terminal UI's menu and the server's /rcm side by side (1.18 cannot hide either)",
].join("\n");

/**
 * `/rcm` as the TUI sends it when typed with words (`/rcm why`, `/rcm show t2`): the TUI
 * sends typed text to a server command of the slash name, and without one the text went to
 * the model. The server hands it to the TUI part, which answers on screen (typed-verb.ts).
 */
export const RCM_TYPED_COMMAND = "rcm";

/**
 * OpenCode 1.18's TUI lists its own slash commands and the server's side by side, with no way
 * to hide a server command (a command's config has no such field): typing `/rcm` shows the
 * TUI part's menu entry and this one. Their descriptions say which is which.
 */
export const RCM_TYPED_COMMAND_CONFIG = {
  // No "rcm" in it: the TUI ranks its slash list by the typed text's match in each description too,
  // and the menu entry must stay first, so that `/rcm` and Enter opens the menu.
  description: "with a verb typed after it: status, why, show t2, move 3 t2... (without one: the menu)",
  template: "opencode-rcm answers this command itself: $ARGUMENTS",
};

/** The config entry that makes `/rcm-text` a command; its template is never sent (the plug-in answers). */
export const RCM_COMMAND_CONFIG = {
  description: `opencode-rcm for web, desktop, opencode run (in the terminal UI: /${RCM_TYPED_COMMAND}): ${RCM_VERB_LIST}`,
  template: "opencode-rcm answers this command itself: $ARGUMENTS",
};

/** The answer to `/rcm <args>`, computed without any model. Throws with a usage hint on a bad argument. */
export async function answerRcmCommand(
  deps: {
    options: Options;
    store?: SessionStore | undefined;
    verbs?: VerbDispatcher | undefined;
    /** The project's state folder: the earlier sessions' tasks (resume, done, drop) are read and marked there. */
    stateDir?: string | undefined;
    now?: Date;
  },
  sessionID: string,
  args: string,
): Promise<string> {
  const [name = "status", ...rest] = args.trim().split(/\s+/).filter(Boolean);
  const { options, store, verbs, stateDir } = deps;
  const now = deps.now ?? new Date();
  if (name === "help") return `${RCM_USAGE}\n\n${OPENCODE_LIMITS}`;
  const words = {
    onCommand: `/${RCM_COMMAND} on`,
    absent: "leaves this sub-agent session untouched",
    showCommand: (task: string, asModel: boolean) => `/${RCM_COMMAND} show ${task}${asModel ? " model" : ""}`,
  };
  if (!store || !verbs) return renderStatus(options, undefined, words);
  const verb = rcmVerb(name);
  if (!verb) {
    const typed = parseTypedVerb(name);
    throw new UsageError(
      `unknown /${RCM_COMMAND} command "${name}"${typed.kind === "unknown" && typed.suggestion ? ` (did you mean /${RCM_COMMAND} ${typed.suggestion}?)` : ""}`,
    );
  }
  const state = await store.read(sessionID);
  const argument = rest[0];
  if (verb.kind === "read") {
    if (verb.argument && state && !argument) throw new UsageError(`/${RCM_COMMAND} ${verb.name} needs a task id, e.g. /${RCM_COMMAND} ${verb.name} t2`);
    const view = rest[1]?.toLowerCase();
    if (verb.name === "show" && view !== undefined && view !== "model")
      throw new UsageError(
        `/${RCM_COMMAND} show: unexpected "${rest.slice(1).join(" ")}" (only model, for the text the model gets: /${RCM_COMMAND} show ${argument} model)`,
      );
    return verb.answer({ options, state, words, as: verb.name === "show" && view === "model" ? "model" : "person" }, argument);
  }
  const earlier = () => (stateDir ? earlierSessionsTasks({ stateDir, sessionID, resume: options.resume, now }) : Promise.resolve([]));
  if (verb.kind === "mark") {
    if (!stateDir) throw new Error("no state folder to mark the task in");
    const target = verb.target(state, rest, { sessionID, earlier: await earlier() });
    if ("problem" in target) throw new UsageError(`/${RCM_COMMAND} ${verb.name}: ${target.problem}`);
    await markTask(stateDir, { sessionID: target.sessionID, taskId: target.taskId, mark: verb.mark, at: now });
    return markedText(target, verb.mark);
  }
  switch (verb.name) {
    case "move": {
      const move = verb.intent(state, rest);
      if ("problem" in move) throw new UsageError(`/${RCM_COMMAND} move: ${move.problem}`);
      if (move.kind !== "move") throw new Error("move made no move");
      const done = await verbs.move(sessionID, move);
      const ledger = (await store.read(sessionID))?.ledger;
      const froms = [...new Set(done.moved.map((request) => request.from))].join(", ");
      const which = requestNumbersText(
        ledger,
        done.moved.map((request) => request.messageID),
      );
      const besides = moveSideEffectLines({ ledger, held: done.held, followed: done.followed, moveCommand: `/${RCM_COMMAND} move` });
      const only = besides.length === 0 ? " Nothing else moved." : "";
      return [
        `Moved ${which} from ${froms} to ${done.task.id}${done.entry.opened ? " (new task)" : ""} "${taskName(done.task.title)}".${only} The next model call gets ${done.task.id}'s history.`,
        ...besides,
        ...(ledger ? [`Now: ${describeDecision(ledger, done.entry, options.confidenceThreshold)}`] : []),
      ].join("\n");
    }
    case "split": {
      const split = verb.intent(state, rest);
      if ("problem" in split) throw new UsageError(`/${RCM_COMMAND} split: ${split.problem}`);
      if (split.kind !== "split") throw new Error("split made no split");
      const done = await verbs.split(sessionID, split.task);
      const seeded = `${done.record ? "its memory record and " : ""}${done.requests === 1 ? "its request" : `its ${done.requests} requests`}`;
      const left =
        done.unsure.length > 0
          ? ` Not ${done.unsure.map((number) => `#${number}`).join(", ")}: unsure, maybe ${done.task.id}'s, left in this session (move ${done.unsure.length === 1 ? "it" : "them"} where ${done.unsure.length === 1 ? "it belongs" : "they belong"}).`
          : "";
      return `Split ${done.task.id} "${taskName(done.task.title)}" out into session ${done.sessionID} ("${done.title}"): its first model call gets ${seeded}.${left} This session routes no more requests to ${done.task.id}.`;
    }
    case "resume": {
      const needs = resumeNeedsMemory(options.mode);
      if (needs) return needs;
      const tasks = await earlier();
      if (rest.length === 0) return earlierListText(tasks, now, `/${RCM_COMMAND} resume <n> resumes one here`);
      const resume = verb.intent(state, rest, { sessionID, earlier: tasks });
      if ("problem" in resume) throw new UsageError(`/${RCM_COMMAND} resume: ${resume.problem}`);
      if (resume.kind !== "resume") throw new Error("resume made no resumption");
      const done = await verbs.resume(sessionID, resume.key);
      return resumedText(done.task, now, "with the next request here");
    }
    case "off":
      await verbs.switchOff(sessionID, true);
      return `opencode-rcm is off for this session: the model gets the native history until /${RCM_COMMAND} on.`;
    case "on":
      await verbs.switchOff(sessionID, false);
      return `opencode-rcm is on again for this session (mode ${options.mode}). Requests sent while it was off are routed to their tasks with the next request.`;
    default:
      throw new Error(`/${RCM_COMMAND} ${verb.name}: a change the server does not apply yet`);
  }
}

/** A mistyped `/rcm` command: the answer is the message and the usage. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(problem: string) {
    super(`${problem}\n\n${RCM_USAGE}`);
  }
}
