// Scores one patch inside a container, with the container's git, patch and Python: the bench
// runs this file with the OpenCode binary's own JavaScript runtime (BUN_BE_BUN=1), so scoring
// follows the same code as on the host. Argument: a job file written by the bench.
import { readFile, writeFile } from "node:fs/promises";
import type { Task } from "../suite/schema.js";
import { scoreTask } from "./score-task.js";

interface ScoreJob {
  task: Task;
  repoSource: string;
  patch: string | null;
  workDir: string;
  timeoutMs: number;
  /** Where the report is written. */
  out: string;
}

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write("usage: score-job <job.json>\n");
  process.exit(2);
}
const job = JSON.parse(await readFile(file, "utf8")) as ScoreJob;
const report = await scoreTask({ task: job.task, repoSource: job.repoSource, patch: job.patch, workDir: job.workDir, timeoutMs: job.timeoutMs });
await writeFile(job.out, JSON.stringify(report));
