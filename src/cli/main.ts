import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { messageOf } from "../kit/errors/message-of.js";
import { ERROR_CODES, type ErrorCode, RcmError } from "../kit/errors/rcm-error.js";
import { packageRoot } from "../kit/package-root.js";
import { benchCommands, reportCommand } from "./bench-commands.js";
import type { CliIo, Env } from "./cli-io.js";
import { helpPage, runCommandLine } from "./command-line.js";
import { type Command, type CommandGroup, renderHelp } from "./declare.js";
import { demoCommand } from "./demo-command.js";
import { memoryEvalCommand, routeEvalCommand } from "./eval-commands.js";
import { sessionCommands } from "./session-commands.js";

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

/**
 * Runs the command line `argv` (without node and the script) with `io` and the environment `env`;
 * prints a failure as one line on io.stderr; returns the exit status. It never touches the
 * process: the bin (src/cli.ts) hands it the real streams and environment, and exits.
 */
export async function main(argv: readonly string[], io: CliIo, env: Env): Promise<number> {
  try {
    const { rest, opencodeBin } = withOpencodeBin(argv);
    const page = helpPage(ROOT, rest);
    if (page !== undefined) {
      io.stdout.write(`${await renderHelp(page.command, { parent: page.parent, version: await version(), color: io.stdout.isTTY === true })}\n`);
      return 0;
    }
    if (rest[0] === "--version" || rest[0] === "-v") {
      io.stdout.write(`${NAME} ${await version()}\n`);
      return 0;
    }
    return await runCommandLine(ROOT, rest, { io, env: opencodeBin === undefined ? env : { ...env, OPENCODE_BIN: opencodeBin } });
  } catch (error) {
    const failure = asRcmError(error);
    const hint = failure.showUsage ? `\n${usageHint(argv)}` : "";
    io.stderr.write(`${NAME}: ${failure.message} (${failure.code})${hint}\n`);
    if (failure.code === "internal" && env["OPENCODE_RCM_DEBUG"] && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return failure.exitCode;
  }
}

async function version(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

/**
 * `--opencode-bin <path>` anywhere on the command line names the binary for every command (as
 * OPENCODE_BIN): taken out before the command line goes to its command, which does not declare it.
 */
function withOpencodeBin(argv: readonly string[]): { rest: string[]; opencodeBin: string | undefined } {
  const rest: string[] = [];
  let opencodeBin: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "--opencode-bin" || arg.startsWith("--opencode-bin=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[(index += 1)];
      if (!value) throw new RcmError("usage", "--opencode-bin needs a path");
      opencodeBin = value;
    } else rest.push(arg);
  }
  return { rest, opencodeBin };
}

/** One hint after a usage error, so the error line stays on screen: where the rest of the help is. */
function usageHint(argv: readonly string[]): string {
  const command = argv.find((arg) => !arg.startsWith("-"));
  const known = command !== undefined && Object.hasOwn(COMMANDS, command);
  return `Run "${NAME} ${known ? `${command} ` : ""}--help" for the options.`;
}

/** Every failure as one line: the CLI's own errors as they are, anything else as `internal` (exit 1). */
function asRcmError(error: unknown): RcmError {
  if (error instanceof RcmError) return error;
  return new RcmError("internal", `${messageOf(error)} (internal error; OPENCODE_RCM_DEBUG=1 prints the stack)`);
}
