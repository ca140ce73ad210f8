import { RcmError } from "../kit/errors/rcm-error.js";
import { RCM_VERBS, type ReadVerb } from "../plugin/session-views/rcm-verbs.js";
import { terminalChooser } from "./ask-session.js";
import type { CommandContext } from "./cli-io.js";
import { type ArgSpecs, type Command, defineCli, type Parsed } from "./declare.js";
import { moveCommand, readVerbCommand, type SessionScope, sessionsCommand, splitCommand, switchCommand } from "./sessions/session-verbs.js";
import { markTaskCommand, resumeCommand, unfinishedTasksCommand } from "./sessions/unfinished-task-verbs.js";

/** Where the commands on the plug-in's stored sessions look (outside the TUI). */
const SCOPE = {
  dir: { type: "string", valueHint: "folder", description: "the project (default: the current folder)" },
  "state-dir": { type: "string", valueHint: "d", description: "the plug-in's state folder, if its stateDir option is set" },
} as const satisfies ArgSpecs;

const SESSION = {
  type: "positional",
  description: "an id (ses_...), a unique start of one, or latest (the one written last); default: the one on screen in the TUI used last here",
} as const;

const SAFE = "Safe while OpenCode runs: move, split, off, on and resume wait in the session's inbox until its next request.";

function scope(args: Parsed<typeof SCOPE>, { io, env }: CommandContext): SessionScope {
  return { directory: args.dir ?? process.cwd(), stateDir: args["state-dir"], env, choose: terminalChooser(io) };
}

const TASK = { type: "positional", required: true, description: "<task>: a task id (t2)" } as const;

/** The misuse of `command`, which takes `what`: `status takes at most a session id, got a b`. */
function takes(command: string, what: string): (given: readonly string[]) => string {
  return (given) => `${command} takes ${what}, got ${given.join(" ") || "nothing"}`;
}

function print({ io }: CommandContext, text: string): number {
  io.stdout.write(text);
  return 0;
}

const sessionsListCommand = defineCli({
  name: "sessions",
  description: "The recent OpenCode sessions of the project in this folder (or --dir) with their tasks.",
  args: { ...SCOPE, all: { type: "boolean", description: "every session, not only the 10 most recent" } },
  run: async (args, context) => print(context, await sessionsCommand(scope(args, context), { all: args.all })),
});

/** A reading /rcm verb as a command: `opencode-rcm <verb> [<session>]`, or `[<session>] <task>` when it takes a task. */
function readVerbSessionCommand(verb: ReadVerb): Command {
  if (verb.name === "tasks") return tasksSessionCommand(verb);
  if (!verb.argument) {
    return defineCli({
      name: verb.name,
      description: `As /rcm ${verb.name} in the TUI: ${verb.help}.`,
      args: { session: SESSION, ...SCOPE },
      misuse: takes(verb.name, "at most a session id"),
      run: async (args, context) => print(context, await readVerbCommand(scope(args, context), args.session, verb)),
    });
  }
  return defineCli({
    name: verb.name,
    description: `As /rcm ${verb.name} in the TUI: ${verb.help}.`,
    args: {
      session: SESSION,
      task: TASK,
      ...SCOPE,
      "as-model": { type: "boolean", description: "the record as the model gets it (its text, word for word), not as a person reads it" },
    },
    misuse: takes(verb.name, "[<session>] <task>"),
    run: async (args, context) =>
      print(context, await readVerbCommand(scope(args, context), args.session, verb, args.task, args["as-model"] ? "model" : "person")),
  });
}

/** `tasks [<session>]` as /rcm tasks; `tasks --all`: the unfinished tasks of every session of the project. */
function tasksSessionCommand(verb: ReadVerb): Command {
  return defineCli({
    name: verb.name,
    description: `As /rcm ${verb.name} in the TUI: ${verb.help}. With --all: the project's unfinished tasks across its sessions.`,
    details: "--all lists the tasks nobody marked done or dropped (opencode-rcm done|drop), within the options resume.maxAgeDays and resume.maxTasks.",
    args: {
      session: SESSION,
      ...SCOPE,
      all: { type: "boolean", description: "the unfinished tasks of every session of the project, with status, age, pending asks and session" },
    },
    misuse: takes(verb.name, "at most a session id"),
    run: async (args, context) => {
      if (!args.all) return print(context, await readVerbCommand(scope(args, context), args.session, verb));
      if (args.session !== undefined) throw new RcmError("usage", `tasks --all lists every session's tasks: drop the session id (${args.session})`);
      return print(context, await unfinishedTasksCommand(scope(args, context)));
    },
  });
}

/** `done|drop [<session>/]<task>`: tasks --all no longer lists it; the session's state file is not touched. */
function markSessionCommand(mark: "done" | "dropped"): Command {
  const name = mark === "done" ? "done" : "drop";
  return defineCli({
    name,
    description: `Marks a task of a session ${mark}: opencode-rcm tasks --all no longer lists it.`,
    details: "Safe while OpenCode runs: the mark goes to the project's task-marks.json, never to the session's state file.",
    args: {
      target: {
        type: "positional",
        required: true,
        description: "[<session>/]<task>: a session (an id, a unique start of one, or latest; default: the one on screen) and a task id (t2)",
      },
      ...SCOPE,
    },
    misuse: takes(name, "[<session>/]<task>"),
    run: async (args, context) => print(context, await markTaskCommand(scope(args, context), args.target, mark)),
  });
}

export const moveSessionCommand = defineCli({
  name: "move",
  description:
    "Requests of the session belong to <task> (or a new task) from its next call on: the last one, or those named by number (3, 3 5, 3-5, 3.. for 3 and every later one; opencode-rcm status numbers them).",
  details: SAFE,
  args: {
    // A first word that is no request number is the session.
    session: { ...SESSION, pattern: /^(?!#?\d)/ },
    target: { type: "positional", required: true, variadic: true, pattern: /^(t\d+|new)$/i, description: "[requests] <task|new>: a task id (t2) or new" },
    ...SCOPE,
  },
  misuse: (given) => `${takes("move", "[<session>] [requests] <task|new>")(given)}: e.g. opencode-rcm move t2, or move 3.. t2`,
  run: async (args, context) => print(context, await moveCommand(scope(args, context), args.session, args.target)),
});

const splitSessionCommand = defineCli({
  name: "split",
  description: "The task goes on in a new OpenCode session that starts with its memory record and its requests; the session routes no more requests to it.",
  details: SAFE,
  args: { session: SESSION, task: TASK, ...SCOPE },
  misuse: takes("split", "[<session>] <task>"),
  run: async (args, context) => print(context, await splitCommand(scope(args, context), args.session, args.task)),
});

function switchSessionCommand(name: "off" | "on", description: string): Command {
  return defineCli({
    name,
    description,
    details: SAFE,
    args: { session: SESSION, ...SCOPE },
    misuse: takes(name, "at most a session id"),
    run: async (args, context) => print(context, await switchCommand(scope(args, context), args.session, name === "off")),
  });
}

const offSessionCommand = switchSessionCommand("off", "Native history for the session (the model gets the whole history).");
const onSessionCommand = switchSessionCommand("on", "The plug-in back on for the session.");

const resumeSessionCommand = defineCli({
  name: "resume",
  description:
    "An earlier session's unfinished task goes on in the session, with its memory record (modes memory and full); with no task, the numbered list of them.",
  details: `${SAFE} The task: its number in the list, its id when one earlier session has it (t2), or <session>/<task> as tasks --all names it.`,
  args: {
    // A first word that is no task (a number, t2, or <session>/<task>) is the session.
    session: { ...SESSION, pattern: /^(?!\d+$|t\d+$)[^/]+$/i },
    task: { type: "positional", variadic: true, description: "[<n>|<task>|<session>/<task>]: which earlier task" },
    ...SCOPE,
  },
  misuse: takes("resume", "[<session>] [<n>|<task>|<session>/<task>]"),
  run: async (args, context) => {
    if (args.task.length > 1) throw new RcmError("usage", `resume takes one task, got ${args.task.join(" ")}`);
    return print(context, await resumeCommand(scope(args, context), args.session, args.task));
  },
});

/** The changes the CLI makes to a session (posted to its inbox) or to the project's task marks, by verb (each with its own checks and words). */
const CHANGE_COMMANDS: Readonly<Record<string, Command>> = {
  move: moveSessionCommand,
  split: splitSessionCommand,
  off: offSessionCommand,
  on: onSessionCommand,
  resume: resumeSessionCommand,
  done: markSessionCommand("done"),
  drop: markSessionCommand("dropped"),
};

/**
 * `opencode-rcm sessions` and every /rcm verb (session-views/rcm-verbs.ts), in the verbs'
 * order: a reading verb added there is a command here too. A changing or marking verb needs
 * its entry in CHANGE_COMMANDS (a test checks that every verb has a command).
 */
export const sessionCommands: Readonly<Record<string, Command>> = {
  sessions: sessionsListCommand,
  ...Object.fromEntries(
    RCM_VERBS.flatMap((verb) => {
      const command = verb.kind === "read" ? readVerbSessionCommand(verb) : CHANGE_COMMANDS[verb.name];
      return command ? [[verb.name, command]] : [];
    }),
  ),
};
