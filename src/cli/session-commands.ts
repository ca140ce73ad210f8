import { RcmError } from "../errors/rcm-error.js";
import { moveCommand, type SessionScope, sessionsCommand, statusCommand, switchCommand, whyCommand } from "../sessions-cli/session-commands.js";
import { type ArgSpecs, type Command, defineCli, type Parsed } from "./declare.js";

/** Where the commands on the plug-in's stored sessions look (outside the TUI). */
const SCOPE = {
  dir: { type: "string", valueHint: "folder", description: "the project (default: the current folder)" },
  "state-dir": { type: "string", valueHint: "d", description: "the plug-in's state folder, if its stateDir option is set" },
} as const satisfies ArgSpecs;

const SESSION = {
  type: "positional",
  description: "an id (ses_...), a unique start of one, or latest (the default)",
} as const;

const SAFE =
  "Safe while OpenCode runs: move, off and on wait in the session's inbox until its next request.";

function scope(args: Parsed<typeof SCOPE>): SessionScope {
  return { directory: args.dir ?? process.cwd(), stateDir: args["state-dir"], env: process.env };
}

/** At most one positional argument, the session. */
function session(command: string, positionals: readonly string[]): string | undefined {
  if (positionals.length > 1) throw new RcmError("usage", `${command} takes at most a session id, got ${positionals.join(" ")}`);
  return positionals[0];
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

export const sessionsListCommand = defineCli({
  name: "sessions",
  description: "The recent OpenCode sessions of the project in this folder (or --dir) with their tasks.",
  args: { ...SCOPE, all: { type: "boolean", description: "every session, not only the 10 most recent" } },
  run: async (args) => print(await sessionsCommand(scope(args), { all: args.all })),
});

export const statusSessionCommand = defineCli({
  name: "status",
  description: "As /rcm status in the TUI: tasks, current task, last decision, savings.",
  args: { session: SESSION, ...SCOPE },
  run: async (args) => print(await statusCommand(scope(args), session("status", args._))),
});

export const whySessionCommand = defineCli({
  name: "why",
  description: "What the session's last model call received, and why.",
  args: { session: SESSION, ...SCOPE },
  run: async (args) => print(await whyCommand(scope(args), session("why", args._))),
});

export const moveSessionCommand = defineCli({
  name: "move",
  description: "The session's last request belongs to <task> (or a new task) from its next call on.",
  details: SAFE,
  args: { session: SESSION, target: { type: "positional", required: true, description: "<task|new>: a task id (t2) or new" }, ...SCOPE },
  async run(args) {
    const positionals = args._;
    if (positionals.length > 2) throw new RcmError("usage", `move takes [<session>] <task|new>, got ${positionals.join(" ")}`);
    const target = positionals.at(-1);
    if (target === undefined || !/^(t\d+|new)$/.test(target)) throw new RcmError("usage", "move needs a task id or new, e.g. opencode-rcm move t2");
    return print(await moveCommand(scope(args), positionals.length === 2 ? positionals[0] : undefined, target));
  },
});

function switchSessionCommand(name: "off" | "on", description: string): Command {
  return defineCli({
    name,
    description,
    details: SAFE,
    args: { session: SESSION, ...SCOPE },
    run: async (args) => print(await switchCommand(scope(args), session(name, args._), name === "off")),
  });
}

export const offSessionCommand = switchSessionCommand("off", "Native history for the session (the model gets the whole history).");
export const onSessionCommand = switchSessionCommand("on", "The plug-in back on for the session.");
