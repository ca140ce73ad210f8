// A command line on the declared command tree: which help page it asks for, else citty finds
// the command (checking each command word on the way) and parses its options, once.

import { type CommandDef, defineCommand, runCommand } from "citty";
import { RcmError } from "../kit/errors/rcm-error.js";
import type { CommandContext } from "./cli-io.js";
import { type Command, type CommandGroup, cittyRunner, isGroup } from "./declare.js";
import { type GroupedNames, unknownCommandProblem } from "./unknown-command.js";

const HELP_FLAGS = ["--help", "-h"];

/** `root.subCommands[name]`, not anything an object inherits (`toString`). */
function subCommand(group: CommandGroup, name: string | undefined): Command | CommandGroup | undefined {
  return name !== undefined && Object.hasOwn(group.subCommands, name) ? group.subCommands[name] : undefined;
}

/**
 * The help `argv` asks for, as citty's runMain finds it before running anything: the root's for
 * nothing, `help`, `--help` or `-h`; else --help or -h anywhere after a command asks for that
 * command's, or for its subcommand's when one is named right after it. Undefined: run `argv`.
 */
export function helpPage(root: CommandGroup, argv: readonly string[]): { command: Command | CommandGroup; parent: string } | undefined {
  const [first, ...rest] = argv;
  if (first === undefined || first === "help" || HELP_FLAGS.includes(first)) return { command: root, parent: "" };
  const found = subCommand(root, first);
  if (found === undefined || !rest.some((arg) => HELP_FLAGS.includes(arg))) return undefined;
  const sub = isGroup(found) ? subCommand(found, rest[0]) : undefined;
  return sub === undefined ? { command: found, parent: root.name } : { command: sub, parent: `${root.name} ${first}` };
}

/** Runs `argv` (a command line that asks for no help) on the commands under `root`; returns the exit status. */
export async function runCommandLine(root: CommandGroup, argv: readonly string[], context: CommandContext): Promise<number> {
  let status = 0;
  const tree = cittyGroup(root, [], { context, grouped: groupedNames(root), ran: (code) => (status = code) });
  await runCommand(tree, { rawArgs: [...argv] });
  return status;
}

interface TreeOptions {
  context: CommandContext;
  grouped: GroupedNames;
  ran: (status: number) => void;
}

/**
 * A command group as citty dispatches it. A group takes no options, so citty dispatches on the
 * first word: checked first, so that a missing or unknown one is named with the nearest command.
 */
function cittyGroup(group: CommandGroup, path: readonly string[], options: TreeOptions): CommandDef {
  const subCommands = Object.fromEntries(
    Object.entries(group.subCommands).map(([name, sub]) => {
      const subPath = [...path, name];
      return [name, isGroup(sub) ? cittyGroup(sub, subPath, options) : cittyRunner(sub, subPath.join(" "), options.context, options.ran)];
    }),
  );
  return defineCommand({
    meta: { name: group.name },
    subCommands,
    setup({ rawArgs }) {
      const typed = rawArgs[0];
      if (subCommand(group, typed) !== undefined) return;
      if (path.length === 0) {
        const known = [...Object.keys(group.subCommands), "help"];
        throw new RcmError("usage", unknownCommandProblem({ typed: typed ?? "", known, grouped: options.grouped }));
      }
      const name = path.join(" ");
      const known = Object.keys(group.subCommands);
      throw new RcmError("usage", typed === undefined ? `${name} needs a subcommand` : unknownCommandProblem({ typed, known, group: name }));
    },
  });
}

/** Each command group's subcommands (`bench`: mini, run...), so `opencode-rcm run` is pointed to `bench run`. */
function groupedNames(root: CommandGroup): GroupedNames {
  const grouped: Record<string, string[]> = {};
  for (const [name, command] of Object.entries(root.subCommands)) if (isGroup(command)) grouped[name] = Object.keys(command.subCommands);
  return grouped;
}
