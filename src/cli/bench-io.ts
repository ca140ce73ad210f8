// How every bench command runs: Ctrl-C handling, progress on stderr, and the run-directory argument they share.

import { renderProgress } from "../lab/bench/render-progress.js";
import type { BenchProgress } from "../lab/bench/run-bench.js";

/** What a bench command needs while it runs: the Ctrl-C signal and where progress goes. */
export interface BenchIo {
  signal: AbortSignal;
  progress: (event: BenchProgress) => void;
}

/**
 * Runs a bench command and prints what it returns. First Ctrl-C: stop cleanly (no half-written
 * results; exit status 130); a second one exits at once.
 */
export async function withBenchIo(work: (io: BenchIo) => Promise<string>): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write("\n[bench] interrupted: finishing cleanly (Ctrl-C again to exit now)\n");
    controller.abort();
  };
  process.on("SIGINT", onInterrupt);
  const started = Date.now();
  try {
    const text = await work({ signal: controller.signal, progress: (event) => process.stderr.write(`${renderProgress(event, Date.now() - started)}\n`) });
    process.stdout.write(text);
    return controller.signal.aborted ? 130 : 0;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

export const RUN_DIR = { type: "positional", required: true, description: "<run dir>: a bench run's directory" } as const;

/** The misuse of a command that takes exactly one run directory. */
export function oneRunDir(command: string): () => string {
  return () => `${command} takes exactly one run directory`;
}
