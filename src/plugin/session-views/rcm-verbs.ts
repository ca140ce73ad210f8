import type { Options } from "../config/options-schema.js";
import type { SessionIntent } from "../store/session-inbox.js";
import type { SessionState } from "../store/session-state-file.js";
import type { UnfinishedTask } from "../store/unfinished-tasks.js";
import { earlierKey, type MarkTarget, markTarget, pickEarlier } from "./earlier-tasks.js";
import { MOVE_WORDS, moveFromWords, requestNumberRuns } from "./move-selection.js";
import { renderRecordAsModelGetsIt, renderRecordForPerson } from "./record-for-person.js";
import { renderStatus, renderTaskGoals, renderWhy, taskRows, type ViewSettings, type ViewWords, viewWords, whenRecordWritten } from "./render-status.js";
import { canSplit, splitFromWords } from "./split-selection.js";
import { plural } from "./words.js";

/** What a verb speaks with: the options (mode, router, threshold, record size), the session's state, the surface's words. */
interface VerbInput {
  options: ViewSettings & Pick<Options, "memory">;
  state: SessionState | undefined;
  words?: ViewWords;
  /** `show`: the record for a person (the default), or the text the model gets. */
  as?: "person" | "model";
  /** The options' problems, in words (`status` lists them: the panel has only their number). */
  problems?: readonly string[];
}

interface VerbBase {
  name: string;
  /** Its argument as the usage shows it ("<task>"), if any. */
  argument?: string;
  /** One short line: the TUI's menu cuts it at the dialog's width. */
  summary: string;
  /** The usage line's description. */
  help: string;
}

/** A verb that reads the session's state and answers in words, the same on every surface. */
export interface ReadVerb extends VerbBase {
  kind: "read";
  answer(input: VerbInput, task?: string): string;
}

/** What the verbs on earlier sessions' tasks read besides the session's state: whose session it is, and those tasks. */
interface EarlierContext {
  sessionID: string;
  /** The earlier sessions' unfinished tasks, those another session took among them (store/unfinished-tasks.ts `withTaken`). */
  earlier: readonly UnfinishedTask[];
}

interface OfferedVerb extends VerbBase {
  /** Whether the TUI's menu offers it for this state (off only when on, on only when off). */
  offered(state: SessionState | undefined): boolean;
}

/**
 * A verb that changes the session: the TUI and the CLI post its intent to the session's inbox
 * (session-inbox.ts); the server applies the same change at once.
 */
interface ChangeVerb extends OfferedVerb {
  kind: "change";
  /** The intent for this state and the words typed after the verb, or why there is none (`resume` picks from `context`). */
  intent(state: SessionState | undefined, words: readonly string[], context?: EarlierContext): SessionIntent | { problem: string };
}

/**
 * `done` and `drop`: a task of this session or of an earlier one is marked in the project's
 * task-marks.json (store/task-marks.ts), which any process may write under its lock: every
 * surface marks it itself, nothing goes through the server.
 */
interface MarkVerb extends OfferedVerb {
  kind: "mark";
  mark: "done" | "dropped";
  target(state: SessionState | undefined, words: readonly string[], context: EarlierContext): MarkTarget | { problem: string };
}

export type RcmVerb = ReadVerb | ChangeVerb | MarkVerb;

/**
 * `/rcm`'s verbs, in menu order: the one place a subcommand is added. The server's
 * `/rcm-text`, the TUI's `/rcm` menu and their usage texts are built from this list.
 */
export const RCM_VERBS: readonly RcmVerb[] = [
  {
    name: "status",
    kind: "read",
    summary: "tasks, last decision, savings",
    help: "mode, tasks, current task, last decision, tokens saved",
    answer: ({ options, state, words, problems }) => renderStatus(options, state, words, problems),
  },
  {
    name: "why",
    kind: "read",
    summary: "what the last model call got",
    help: "what the last model call received, and why",
    answer: ({ options, state, words }) => renderWhy(options, state?.lastCall, state, words),
  },
  {
    name: "tasks",
    kind: "read",
    summary: "each task and its goal",
    help: "the session's tasks with their goals",
    answer: ({ options, state, words }) => (state ? renderTaskGoals(state) : renderStatus(options, state, words)),
  },
  {
    name: "show",
    kind: "read",
    argument: "<task>",
    summary: "a task's memory record",
    help: "one task's memory record (show t2 model: the text the model gets)",
    answer: ({ options, state, words, as }, task) => {
      if (!state || task === undefined) return renderStatus(options, state, words);
      const { showCommand } = viewWords(words);
      const whenWritten = whenRecordWritten(options, task);
      if (as === "model")
        return renderRecordAsModelGetsIt({
          state,
          task,
          recordTokens: options.memory.recordTokens,
          whenWritten,
          threshold: options.confidenceThreshold,
          personHint: showCommand(task, false),
        });
      return renderRecordForPerson({ state, task, whenWritten, threshold: options.confidenceThreshold, modelTextHint: showCommand(task, true) });
    },
  },
  {
    name: "move",
    kind: "change",
    argument: MOVE_WORDS,
    summary: "requests to another task",
    help: `requests to <task> or a new one: move t2 (the last), move 3 5 t2, move 3.. t2 (3 and every later one)`,
    offered: (state) => (state?.ledger.order.length ?? 0) > 0,
    intent: (state, words) => (state ? moveFromWords(state.ledger, words) : { problem: "no request has been routed in this session yet" }),
  },
  {
    name: "off",
    kind: "change",
    summary: "native history for this session",
    help: "native history for this session",
    offered: (state) => state?.off !== true,
    intent: () => ({ kind: "off" }),
  },
  {
    name: "on",
    kind: "change",
    summary: "back on for this session",
    help: "back on after off",
    offered: (state) => state?.off === true,
    intent: () => ({ kind: "on" }),
  },
  // Last: the menu's other entries keep their places.
  {
    name: "split",
    kind: "change",
    argument: "<task>",
    summary: "a task into its own session",
    help: "a task into a new OpenCode session that starts with its record and requests",
    offered: (state) => canSplit(state?.ledger),
    intent: (state, words) => splitFromWords(state?.ledger, words),
  },
  {
    name: "resume",
    kind: "change",
    argument: "[<task>]",
    summary: "an earlier session's task, here",
    help: "the earlier sessions' unfinished tasks, numbered; resume 2, resume t2 or resume <session>/<task>: it goes on here with its record",
    offered: () => true,
    intent: (state, words, context) => {
      const word = words[0];
      if (word === undefined) return { problem: "which task? resume <n>, t2 or <session>/<task> (resume alone lists them)" };
      const picked = pickEarlier(context?.earlier ?? [], word, state?.resumeOffer);
      return "problem" in picked ? picked : { kind: "resume", key: earlierKey(picked.task) };
    },
  },
  markVerb("done", "done", "a task is finished"),
  markVerb("drop", "dropped", "a task is given up"),
];

function markVerb(name: string, mark: MarkVerb["mark"], summary: string): MarkVerb {
  return {
    name,
    kind: "mark",
    mark,
    argument: "<task>",
    summary,
    help: `${name} t2: this session's t2; ${name} <n> or <session>/<task>: an earlier session's (no session offers it to resume any more)`,
    offered: () => true,
    target: (state, words, context) => markTarget({ sessionID: context.sessionID, state, earlier: context.earlier, word: words[0], offer: state?.resumeOffer }),
  };
}

/**
 * The TUI part's own `/rcm` (its menu) as the slash list and the palette show it, told apart
 * from the server's `/rcm` (a verb typed after it), which 1.18 lists beside it.
 */
/** The verbs as a slash list's description names them: `status, why, show <task>, ...`. */
export const RCM_VERB_LIST = RCM_VERBS.map((verb) => `${verb.name}${verb.argument ? ` ${verb.argument}` : ""}`).join(", ");

export const RCM_MENU_TITLE = `opencode-rcm menu: ${RCM_VERBS.map((verb) => verb.name).join(", ")} (no model turn)`;

/** The verb of that name, if there is one. */
export function rcmVerb(name: string): RcmVerb | undefined {
  return RCM_VERBS.find((verb) => verb.name === name);
}

/** What a TUI menu says once a switch is made, by verb; any other change: applied at the next model call. */
export function menuChangeMessage(verb: string, title: string): string {
  if (verb === "off") return "/rcm off: native history for this session from the next model call (/rcm on to resume).";
  if (verb === "on") return "/rcm on: opencode-rcm is back on for this session; requests sent while off are routed with the next one.";
  return `${title}: applied at the next model call.`;
}

/** A TUI menu's rows for picking a task: its id and title, status, and its requests by number. */
export function taskChoices(state: SessionState): { title: string; value: string; description: string }[] {
  return taskRows(state.ledger).map((row) => ({
    title: `${row.id}  ${row.title}`,
    value: row.id,
    description: `${row.status}, ${plural(row.requests, "request")} ${requestNumberRuns(row.numbers)}`,
  }));
}
