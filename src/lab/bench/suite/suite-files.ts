import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { messageOf } from "../../../kit/errors/message-of.js";
import { suiteError } from "./suite-error.js";

/** What each file of a suite is for, said when it is missing (the format: docs/benchmark-formats.md). */
const PURPOSE: Record<string, string> = {
  "suite.json": 'the suite\'s name and description, {"name": ..., "description": ...}',
  "sessions.jsonl": "the sessions to run, one JSON object per line (bench make-sessions --suite <dir> writes them)",
  "tasks.jsonl": "the tasks, one per line, when the suite has no tasks/ folder (a folder per task is the current format)",
  "task.json": "the task's SWE-bench fields (instance_id, repo, base_commit, FAIL_TO_PASS, PASS_TO_PASS, test_cmd, repo_url or repo_bundle)",
  "patch.diff": "the task's reference solution, a git diff",
  "test_patch.diff": "the task's held-out tests, a git diff",
};

/** A suite file's text; a file that cannot be read is a `suite` error naming it and, when missing, what it is for. */
export async function readSuiteText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (cause) {
    const missing = (cause as { code?: string }).code === "ENOENT";
    const purpose = PURPOSE[basename(file)] ?? (/^stage-\d+\.md$/.test(basename(file)) ? "a stage's request, the text the agent is sent" : undefined);
    const problem = missing ? `not found${purpose ? `: ${purpose}` : ""} (docs/benchmark-formats.md)` : `cannot read: ${messageOf(cause)}`;
    throw suiteError({ file, line: 0, field: "(file)", problem, cause });
  }
}
