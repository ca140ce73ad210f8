#!/usr/bin/env node
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_USAGE, benchCommand } from "./bench/bench-command.js";
import { renderProgress } from "./bench/render-progress.js";
import { MODES, type Mode } from "./config/options-schema.js";
import { renderDemo } from "./demo/render-demo.js";
import { runDemo } from "./demo/run-demo.js";
import { RcmError } from "./errors/rcm-error.js";
import { packageRoot } from "./harness/package-root.js";
import { renderMemoryEval, runMemoryEval } from "./memory-eval/run-memory-eval.js";
import { renderReliabilitySvg } from "./route-eval/render-reliability-svg.js";
import { renderRouteEval, routeEvalJson } from "./route-eval/render-route-eval.js";
import { ROUTER_NAMES, type RouterName, runRouteEval } from "./route-eval/run-route-eval.js";
import { moveCommand, sessionsCommand, statusCommand, switchCommand, whyCommand } from "./sessions-cli/session-commands.js";

const HEADER = `opencode-rcm <command> [options]       (opencode-rcm --version; opencode-rcm <command> --help)

Every command that runs OpenCode finds it as: --opencode-bin <path> or OPENCODE_BIN, else the
opencode-ai package installed next to opencode-rcm, else opencode on PATH.`;

const SESSION_HELP = `  sessions [--all]
          The recent OpenCode sessions of the project in this folder (or --dir) with their tasks.
  status [<session>]      As /rcm status in the TUI: tasks, current task, last decision, savings.
  why [<session>]         What the session's last model call received, and why.
  move [<session>] <task|new>
          The session's last request belongs to <task> (or a new task) from its next call on.
  off [<session>] | on [<session>]
          Native history for the session / back on.
          <session>: an id (ses_...), a unique start of one, or latest (the default). Safe while
          OpenCode runs: move, off and on wait in the session's inbox until its next request.
          --dir <folder>    the project (default: the current folder)
          --state-dir <d>   the plug-in's state folder, if its stateDir option is set`;

/** Each command's help, one source for \`--help\` and \`<command> --help\`. */
const COMMAND_HELP: Readonly<Record<string, string>> = {
  demo: `  demo    Run a scripted multi-task session through the real OpenCode (offline, with a
          scripted model on 127.0.0.1) and print what the model received at each call.
          --mode native|router|memory|full   plug-in mode (default: full)
          --no-debug                         leave out the plug-in's debug annotation
          --keep                             keep the run directory
          --json                             print the result as JSON`,
  "route-eval": `  route-eval [<file.jsonl | directory>...]
          Run a router online over labelled sessions (one JSON session per line; a
          directory means every *.jsonl in it; default: the held-out test split this package
          ships, fixtures/routing-corpus/test) and report accuracy, fallback rate,
          confident-wrong rate (all, harmful, merge), calibration (ECE and a reliability
          table), new-task precision/recall, and the same per session shape and style.
          --router lexical|model|hybrid   (default: lexical; model and hybrid use
                                   RCM_AUX_BASE_URL, RCM_AUX_MODEL and the key in
                                   RCM_AUX_API_KEY; hybrid asks only when unsure)
          --threshold 0.8          confidence below which the full history is kept
          --json                   print {n, accuracy, fallbackRate, confidentWrongRate,
                                   newTaskPrecision, newTaskRecall, harmfulConfidentWrongRate,
                                   mergeConfidentWrongRate, expectedCalibrationError, ...}
          --plot <file.svg>        write a reliability diagram
          --verbose                list every decision, not only the wrong ones`,
  "memory-eval": `  memory-eval <file.jsonl | directory>...
          Score the extractive memory updater's constraints against labelled requirement
          clauses (fixtures/requirements): precision and recall per clause, per file.
          --json                   print {requests, gold, predicted, matched, precision, recall}
          --verbose                list every missed and extra clause`,
  bench: BENCH_USAGE,
  report: `  report <run dir> [--cache-read-price 0.1]
          The same as bench report: report.md and report.html for a bench run.`,
  sessions: SESSION_HELP,
  status: SESSION_HELP,
  why: SESSION_HELP,
  move: SESSION_HELP,
  off: SESSION_HELP,
  on: SESSION_HELP,
};

const COMMANDS = Object.keys(COMMAND_HELP);

const FOOTER = `Errors print one line, "opencode-rcm: <problem> (<code>)", the code one of usage, suite,
run, results, merge, bench-env, provider-config, opencode-not-found, labelled-sessions,
requirement-set, route-eval-setup, swebench-reports, corpus, session or internal; exit status 2
for a problem in the input or the environment, 1 for an internal error (OPENCODE_RCM_DEBUG=1
adds its stack).`;

const USAGE = [HEADER, "", "Commands:", ...new Set(Object.values(COMMAND_HELP)), "  help    Show this text.", "", FOOTER].join("\n");

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

async function main(input: readonly string[]): Promise<number> {
  const argv = withOpencodeBin(input);
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    const help = COMMAND_HELP[command];
    if (help === undefined) throw new RcmError("usage", `unknown command "${command}"`);
    process.stdout.write(`${help}\n`);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    const manifest = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { version: string };
    process.stdout.write(`opencode-rcm ${manifest.version}\n`);
    return 0;
  }
  if (command === "demo") return demo(rest);
  if (command === "route-eval") return routeEval(rest);
  if (command === "memory-eval") return memoryEval(rest);
  if (command === "bench") return bench(rest);
  if (command === "report") return bench(["report", ...rest]);
  if (SESSION_COMMANDS.has(command)) return sessionCommand(command, rest);
  throw new RcmError("usage", `unknown command "${command}"`);
}

async function demo(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      mode: { type: "string", default: "full" },
      "no-debug": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
    strict: true,
  });
  const mode = values.mode;
  if (!isMode(mode)) throw new RcmError("usage", `--mode must be one of ${MODES.join(", ")}, got "${mode}"`);
  const result = await runDemo({
    mode,
    debug: !values["no-debug"],
    keep: values.keep,
    onProgress: (line) => process.stderr.write(`[demo] ${line}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderDemo(result)}\n`);
  return 0;
}

async function routeEval(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      router: { type: "string", default: "lexical" },
      threshold: { type: "string", default: "0.8" },
      json: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      plot: { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
  // The held-out split ships with the package, so an install can check the router without the repository.
  if (positionals.length === 0) positionals.push(join(packageRoot(), "fixtures", "routing-corpus", "test"));
  const router = values.router;
  if (!(ROUTER_NAMES as readonly string[]).includes(router)) throw new RcmError("usage", `--router must be one of ${ROUTER_NAMES.join(", ")}, got "${router}"`);
  const threshold = Number(values.threshold);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new RcmError("usage", `--threshold must be a number in [0, 1], got "${values.threshold}"`);
  const evaluation = await runRouteEval({ paths: positionals, router: router as RouterName, threshold, env: process.env });
  if (values.plot !== undefined) {
    const title = `${evaluation.router} router on ${positionals.map((path) => path.replace(/\/+$/, "").split("/").slice(-2).join("/")).join(", ")}`;
    await writeFile(values.plot, renderReliabilitySvg({ reliability: evaluation.reliability, title, threshold }));
  }
  process.stdout.write(`${values.json ? routeEvalJson(evaluation) : renderRouteEval(evaluation, { verbose: values.verbose })}\n`);
  return 0;
}

async function memoryEval(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { json: { type: "boolean", default: false }, verbose: { type: "boolean", default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new RcmError("usage", "memory-eval takes one or more files (or directories) of labelled requests");
  const evaluation = await runMemoryEval(positionals);
  process.stdout.write(`${values.json ? JSON.stringify(evaluation.total) : renderMemoryEval(evaluation, { verbose: values.verbose })}\n`);
  return 0;
}

async function bench(args: readonly string[]): Promise<number> {
  // First Ctrl-C: stop cleanly (no half-written results); a second one exits at once.
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write("\n[bench] interrupted: finishing cleanly (Ctrl-C again to exit now)\n");
    controller.abort();
  };
  process.on("SIGINT", onInterrupt);
  const started = Date.now();
  try {
    const text = await benchCommand(args, {
      signal: controller.signal,
      progress: (event) => process.stderr.write(`${renderProgress(event, Date.now() - started)}\n`),
    });
    process.stdout.write(text);
    return controller.signal.aborted ? 130 : 0;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

const SESSION_COMMANDS = new Set(["sessions", "status", "why", "move", "off", "on"]);

/** The commands on the plug-in's stored sessions (outside the TUI). */
async function sessionCommand(command: string, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { dir: { type: "string" }, "state-dir": { type: "string" }, all: { type: "boolean", default: false } },
    allowPositionals: true,
    strict: true,
  });
  const scope = { directory: values.dir ?? process.cwd(), stateDir: values["state-dir"], env: process.env };
  const takes = command === "move" ? 2 : command === "sessions" ? 0 : 1;
  if (positionals.length > takes) throw new RcmError("usage", `${command} takes ${takes === 0 ? "no arguments" : takes === 1 ? "at most a session id" : "[<session>] <task|new>"}, got ${positionals.join(" ")}`);
  let text: string;
  if (command === "sessions") text = await sessionsCommand(scope, { all: values.all });
  else if (command === "status") text = await statusCommand(scope, positionals[0]);
  else if (command === "why") text = await whyCommand(scope, positionals[0]);
  else if (command === "move") {
    const target = positionals.at(-1);
    if (target === undefined || !/^(t\d+|new)$/.test(target)) throw new RcmError("usage", "move needs a task id or new, e.g. opencode-rcm move t2");
    text = await moveCommand(scope, positionals.length === 2 ? positionals[0] : undefined, target);
  } else text = await switchCommand(scope, positionals[0], command === "off");
  process.stdout.write(text);
  return 0;
}

function isMode(value: string): value is Mode {
  return (MODES as readonly string[]).includes(value);
}

main(process.argv.slice(2)).then(
  (code) => exitAfterDrain(code),
  (error: unknown) => {
    const failure = asRcmError(error);
    const hint = failure.showUsage ? `\n${usageHint(process.argv.slice(2))}` : "";
    process.stderr.write(`opencode-rcm: ${failure.message} (${failure.code})${hint}\n`);
    if (failure.code === "internal" && process.env["OPENCODE_RCM_DEBUG"] && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return exitAfterDrain(failure.exitCode);
  },
);

/** One hint after a usage error, so the error line stays on screen: where the rest of the help is. */
function usageHint(argv: readonly string[]): string {
  const command = argv.find((arg) => !arg.startsWith("-"));
  const known = command !== undefined && COMMANDS.includes(command);
  return `Run "opencode-rcm ${known ? `${command} ` : ""}--help" for the options.`;
}

/**
 * Exits once stdout and stderr have handed every byte to the OS. `process.exit` on its own
 * drops what a slow pipe reader (`| less`, `| (sleep 2; cat)`) has not taken yet: writes to
 * pipes are asynchronous in Node, and anything past the pipe's 64 KiB buffer is still queued.
 */
async function exitAfterDrain(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  // An empty write's callback runs after every earlier write has been flushed (writes are ordered).
  return new Promise((done) => {
    if (stream.destroyed || !stream.writable) done();
    else stream.write("", () => done());
  });
}

/** Every failure as one line: the CLI's own errors as they are, a bad option as a usage error, anything else as `internal` (exit 1). */
function asRcmError(error: unknown): RcmError {
  if (error instanceof RcmError) return error;
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) return new RcmError("usage", parseArgsProblem(error.message));
  const message = error instanceof Error ? error.message : String(error);
  return new RcmError("internal", `${message} (internal error; OPENCODE_RCM_DEBUG=1 prints the stack)`);
}

/** node:util's parseArgs message, without its advice on positionals that start with "-" (it reads as noise here). */
function parseArgsProblem(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  return unknown ? `unknown option ${unknown[1]}` : message;
}
