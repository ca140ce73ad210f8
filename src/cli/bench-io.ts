// How every bench command runs: Ctrl-C handling, progress on stderr, and the run-directory argument they share.

import { renderProgress } from "../lab/bench/render-progress.js";
import type { BenchProgress } from "../lab/bench/run-bench.js";
import type { CommandContext, Env } from "./cli-io.js";

/** What a bench command needs while it runs: the Ctrl-C signal, where progress goes, the environment. */
export interface BenchIo {
  signal: AbortSignal;
  progress: (event: BenchProgress) => void;
  env: Env;
}

/**
 * Runs a bench command and prints what it returns. First Ctrl-C: stop cleanly (no half-written
 * results; exit status 130); a second one exits at once (the bin does).
 */
export async function withBenchIo(context: CommandContext, work: (io: BenchIo) => Promise<string>): Promise<number> {
  const { stdout, stderr } = context.io;
  const controller = new AbortController();
  const stopListening = context.io.onInterrupt?.(() => {
    stderr.write("\n[bench] interrupted: finishing cleanly (Ctrl-C again to exit now)\n");
    controller.abort();
  });
  const started = Date.now();
  try {
    const progress = (event: BenchProgress) => stderr.write(`${renderProgress(event, Date.now() - started)}\n`);
    const text = await work({ signal: controller.signal, progress, env: context.env });
    stdout.write(text);
    return controller.signal.aborted ? 130 : 0;
  } finally {
    stopListening?.();
  }
}

export const RUN_DIR = { type: "positional", required: true, description: "<run dir>: a bench run's directory" } as const;

/** The misuse of a command that takes exactly one run directory. */
export function oneRunDir(command: string): () => string {
  return () => `${command} takes exactly one run directory`;
}
