import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Mode } from "../../config/options-schema.js";

/** The files of a run directory. */
export function runFiles(outDir: string) {
  return {
    run: join(outDir, "run.json"),
    results: join(outDir, "results.jsonl"),
    report: join(outDir, "report.md"),
    session: (sessionID: string, mode: Mode) => join(outDir, "sessions", sessionID, mode),
    state: (mode: Mode) => join(outDir, "state", mode),
  };
}

/** The run options a run directory was made with. */
export async function readRunOptions(outDir: string): Promise<{ suite: string; modes: Mode[]; seed: number; agent?: unknown }> {
  const text = await readFile(runFiles(outDir).run, "utf8");
  return JSON.parse(text) as { suite: string; modes: Mode[]; seed: number; agent?: unknown };
}
