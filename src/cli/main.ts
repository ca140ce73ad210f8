import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { messageOf } from "../kit/errors/message-of.js";
import { ERROR_CODES, type ErrorCode, RcmError } from "../kit/errors/rcm-error.js";
import { packageRoot } from "../kit/package-root.js";
import { benchCommands, reportCommand } from "./bench-commands.js";
import { type Command, type CommandGroup, isGroup, renderHelp, runDeclared } from "./declare.js";
import { demoCommand } from "./demo-command.js";
import { memoryEvalCommand, routeEvalCommand } from "./eval-commands.js";
import { sessionCommands } from "./session-commands.js";
import { type GroupedNames, unknownCommandProblem } from "./unknown-command.js";

const NAME = "opencode-rcm";

/** Every command, in the order the help lists them. */
const COMMANDS: Record<string, Command | CommandGroup> = {
  demo: demoCommand,
  "route-eval": routeEvalCommand,
  "memory-eval": memoryEvalCommand,
  bench: benchCommands,
  report: reportCommand,
  ...sessionCommands,
};

const ROOT: CommandGroup = {
  name: NAME,
  description: "Resumption Context Manager for OpenCode: the plug-in's evaluations, its sessions outside the TUI, and the Switch-SWE benchmark.",
  details: `Also: ${NAME} --version; ${NAME} help (this text); ${NAME} <command> --help.

Every command that runs OpenCode finds it as: --opencode-bin <path> (anywhere on the command line)
or OPENCODE_BIN, else the opencode-ai package installed next to ${NAME}, else opencode on PATH.

${errorCodesHelp()}`,
  subCommands: COMMANDS,
};

/** The help's last paragraph: how errors print, every code and the exit statuses, from ERROR_CODES. */
function errorCodesHelp(): string {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];
  const bugs = codes.filter((code) => ERROR_CODES[code].exitCode === 1);
  return wrap(
    `Errors print one line, "${NAME}: <problem> (<code>)", the code one of ${codes.slice(0, -1).join(", ")} or ${codes.at(-1)}; ` +
      `exit status 2 for a problem in the input or the environment, 1 for an internal error (${bugs.join(", ")}; OPENCODE_RCM_DEBUG=1 adds its stack).`,
    100,
  );
}

function wrap(text: string, width: number): string {
  const lines = [""];
  for (const word of text.split(" ")) {
    const line = lines.at(-1) as string;
    if (line !== "" && line.length + 1 + word.length > width) lines.push(word);
    else lines[lines.length - 1] = line === "" ? word : `${line} ${word}`;
  }
  return lines.join("\n");
}

/** Runs the command line `input` (without node and the script); returns the exit status. */
export async function main(input: readonly string[]): Promise<number> {
  const argv = withOpencodeBin(input);
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") return printHelp(ROOT, "");
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${NAME} ${await version()}\n`);
    return 0;
  }
  const found = COMMANDS[command];
  if (found === undefined)
    throw new RcmError("usage", unknownCommandProblem({ typed: command, known: [...Object.keys(COMMANDS), "help"], grouped: groupedNames() }));
  const wantsHelp = rest.includes("--help") || rest.includes("-h");
  if (!isGroup(found)) return wantsHelp ? printHelp(found, NAME) : runDeclared(found, command, rest);
  const [sub, ...subArgs] = rest;
  const leaf = sub === undefined ? undefined : found.subCommands[sub];
  if (wantsHelp) return leaf === undefined ? printHelp(found, NAME) : printHelp(leaf, `${NAME} ${command}`);
  if (leaf === undefined) {
    throw new RcmError(
      "usage",
      sub === undefined ? `${command} needs a subcommand` : unknownCommandProblem({ typed: sub, known: Object.keys(found.subCommands), group: command }),
    );
  }
  if (isGroup(leaf)) throw new RcmError("internal", `${command} ${sub} is a group of commands`);
  return runDeclared(leaf, `${command} ${sub}`, subArgs);
}

/** Each command group's subcommands (`bench`: mini, run...), so `opencode-rcm run` is pointed to `bench run`. */
function groupedNames(): GroupedNames {
  const grouped: Record<string, string[]> = {};
  for (const [name, command] of Object.entries(COMMANDS)) if (isGroup(command)) grouped[name] = Object.keys(command.subCommands);
  return grouped;
}

async function printHelp(command: Command | CommandGroup, parent: string): Promise<number> {
  process.stdout.write(`${await renderHelp(command, { parent, version: await version(), color: process.stdout.isTTY === true })}\n`);
  return 0;
}

async function version(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

/** `--opencode-bin <path>` anywhere on the command line names the binary for every command (as OPENCODE_BIN). */
function withOpencodeBin(argv: readonly string[]): string[] {
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "--opencode-bin" || arg.startsWith("--opencode-bin=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[(index += 1)];
      if (!value) throw new RcmError("usage", "--opencode-bin needs a path");
      process.env["OPENCODE_BIN"] = value;
    } else rest.push(arg);
  }
  return rest;
}

/** One hint after a usage error, so the error line stays on screen: where the rest of the help is. */
export function usageHint(argv: readonly string[]): string {
  const command = argv.find((arg) => !arg.startsWith("-"));
  const known = command !== undefined && Object.hasOwn(COMMANDS, command);
  return `Run "${NAME} ${known ? `${command} ` : ""}--help" for the options.`;
}

/** Every failure as one line: the CLI's own errors as they are, a bad option as a usage error, anything else as `internal` (exit 1). */
export function asRcmError(error: unknown): RcmError {
  if (error instanceof RcmError) return error;
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    return new RcmError("usage", parseArgsProblem(error.message));
  return new RcmError("internal", `${messageOf(error)} (internal error; OPENCODE_RCM_DEBUG=1 prints the stack)`);
}

/** node:util's parseArgs message, without its advice on positionals that start with "-" (it reads as noise here). */
function parseArgsProblem(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  return unknown ? `unknown option ${unknown[1]}` : message;
}
