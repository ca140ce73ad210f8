#!/usr/bin/env node
import { main } from "./cli/main.js";

// The one place that touches the process: its arguments, streams, environment, Ctrl-C and exit.
main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, onInterrupt: untilSecondInterrupt }, process.env).then(
  exitAfterDrain,
);

/** Ctrl-C while a command listens: `listener` on the first; the second exits at once (130). */
function untilSecondInterrupt(listener: () => void): () => void {
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    listener();
  };
  process.on("SIGINT", onInterrupt);
  return () => process.off("SIGINT", onInterrupt);
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
