import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Mode } from "../../../plugin/config/options-schema.js";
import { DEFAULT_OPTIONS } from "../../../plugin/config/options-schema.js";
import type { RunSetting } from "./experiment.js";

/** The files of a run directory. */
export function runFiles(outDir: string) {
  return {
    run: join(outDir, "run.json"),
    results: join(outDir, "results.jsonl"),
    report: join(outDir, "report.md"),
    session: (sessionID: string, mode: Mode) => join(outDir, "sessions", sessionID, mode),
    state: (mode: Mode) => join(outDir, "state", mode),
    /**
     * A resumed session run's own plug-in state (its server's): the earlier sessions its plug-in
     * sees are its own first two, not the mode's other session runs (`stateDirOf`).
     */
    resumedState: (sessionID: string, mode: Mode) => join(outDir, "state", "resumed", sessionID, mode),
    /** Its server's private home. */
    resumedHome: (sessionID: string, mode: Mode) => join(outDir, "home", "resumed", sessionID, mode),
    /** Temp files of the run (scoring's scratch, OpenCode's TMPDIR). */
    tmp: join(outDir, "tmp"),
    /** The OpenCode servers' private homes, one per mode. */
    homes: join(outDir, "home"),
    home: (mode: Mode) => join(outDir, "home", mode),
    /** What each mode's model received (`<mode>.jsonl`) and the faithful agent decided (`<mode>.decisions.jsonl`). */
    requests: join(outDir, "model-requests"),
  };
}

/** What a run's run.json says, as far as it is read back (`RunJson`, or the shape of runs made before it). */
export interface RunOptions {
  suite: string;
  modes: Mode[];
  agent?: unknown;
  /** The experiment's setting; runs made before it was kept lack it. */
  setting?: Partial<RunSetting>;
  /** Runs made before the setting was kept: their seed and threshold. */
  seed?: number;
  confidenceThreshold?: unknown;
}

/** The run options a run directory was made with. */
export async function readRunOptions(outDir: string): Promise<RunOptions> {
  const text = await readFile(runFiles(outDir).run, "utf8");
  return JSON.parse(text) as RunOptions;
}

/** The threshold a run's plug-in routed with, from its run.json; the default for a run.json from before it was kept. */
export function runConfidenceThreshold(run: { setting?: Partial<RunSetting>; confidenceThreshold?: unknown } | undefined): number {
  const kept = run?.setting?.confidence_threshold ?? run?.confidenceThreshold;
  return typeof kept === "number" && Number.isFinite(kept) ? kept : DEFAULT_OPTIONS.confidenceThreshold;
}
