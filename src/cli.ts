#!/usr/bin/env node
import { asRcmError, main, usageHint } from "./cli/main.js";

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
