import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Mode } from "../../config/options-schema.js";
import { DEFAULT_OPTIONS } from "../../config/options-schema.js";

/** The files of a run directory. */
export function runFiles(outDir: string) {
  return {
    run: join(outDir, "run.json"),
    results: join(outDir, "results.jsonl"),
    report: join(outDir, "report.md"),
    session: (sessionID: string, mode: Mode) => join(outDir, "sessions", sessionID, mode),
    state: (mode: Mode) => join(outDir, "state", mode),
    /** Temp files of the run (scoring's scratch, OpenCode's TMPDIR). */
    tmp: join(outDir, "tmp"),
  };
}

/** What a run's run.json says, as far as it is read back. */
export interface RunOptions {
  suite: string;
  modes: Mode[];
  seed: number;
  agent?: unknown;
  /** The confidence threshold the plug-in ran with; runs from before it was kept lack it. */
  confidenceThreshold?: unknown;
}

/** The run options a run directory was made with. */
export async function readRunOptions(outDir: string): Promise<RunOptions> {
  const text = await readFile(runFiles(outDir).run, "utf8");
  return JSON.parse(text) as RunOptions;
}

/** The threshold a run's plug-in routed with, from its run.json; the default for a run.json from before it was kept. */
export function runConfidenceThreshold(run: { confidenceThreshold?: unknown } | undefined): number {
  const kept = run?.confidenceThreshold;
  return typeof kept === "number" && Number.isFinite(kept) ? kept : DEFAULT_OPTIONS.confidenceThreshold;
}
