#!/usr/bin/env node
import { parseArgs } from "node:util";
import { renderDemo } from "./demo/render-demo.js";
import { runDemo } from "./demo/run-demo.js";
import { MODES, type Mode } from "./plugin/options.js";

const USAGE = `opencode-rcm <command> [options]

Commands:
  demo    Run a scripted multi-task session through the real OpenCode (offline, with a
          scripted model on 127.0.0.1) and print what the model received at each call.
          --mode native|router|memory|full   plug-in mode (default: full)
          --no-debug                         leave out the plug-in's debug annotation
          --keep                             keep the run directory
          --json                             print the result as JSON
  help    Show this text.`;

/** A mistake in how the command was called: printed with the usage, exit code 2. */
class UsageError extends Error {}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === "demo") return demo(rest);
  throw new UsageError(`unknown command "${command}"`);
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
  if (!isMode(mode)) throw new UsageError(`--mode must be one of ${MODES.join(", ")}, got "${mode}"`);
  const result = await runDemo({
    mode,
    debug: !values["no-debug"],
    keep: values.keep,
    onProgress: (line) => process.stderr.write(`[demo] ${line}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderDemo(result)}\n`);
  return 0;
}

function isMode(value: string): value is Mode {
  return (MODES as readonly string[]).includes(value);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
      process.stderr.write(`opencode-rcm: ${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`opencode-rcm: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
