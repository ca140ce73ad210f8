import { readFile } from "node:fs/promises";
import { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import type { RcmError } from "../../../kit/errors/rcm-error.js";
import { FINALIZE_REQUEST } from "../suite/request-text.js";
import { FINALIZE } from "../suite/schema.js";
import { FileProblemsError, formatHint, zodProblems } from "./file-problems-error.js";

// `agent.json`, a suite's playbook for its scripted agents: for each stage request of each task,
// the files a correct agent writes. The replay agent plays it as is; the faithful agent also
// reads each task's `faithful/` folder (what it writes when part of the task is out of view).

const DEFAULT_CHECK_COMMAND = "python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";

/** A path relative to the workspace that stays inside it. */
function isInsidePath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.split("/").some((part) => part === ".." || part === "." || part === "");
}

const PlaybookStageSchema = z.strictObject({
  /** The stage's request exactly as the suite words it (the text after `<workspace>: `). */
  request: z
    .string()
    .min(1)
    .refine((request) => request === request.trim(), { message: "must not start or end with whitespace" })
    .refine((request) => request !== FINALIZE_REQUEST, { message: "is the finalization request" })
    .describe("The stage's request exactly as the suite words it (its stage-N.md without the final newline); the agent recognises the stage by this text."),
  /** Full contents of each file after this stage, by path relative to the workspace. */
  writes: z
    .record(z.string(), z.string())
    .superRefine((writes, context) => {
      const paths = Object.keys(writes);
      if (paths.length === 0) context.addIssue({ code: "custom", message: "at least one file is required" });
      for (const path of paths.filter((candidate) => !isInsidePath(candidate))) {
        context.addIssue({ code: "custom", path: [path], message: `"${path}" must be a relative path inside the workspace` });
      }
    })
    .describe("The full contents of every file the stage writes, by path relative to the workspace (a/b.py; no leading /, no . or ..)."),
});

const PlaybookTaskSchema = z.strictObject({
  stages: z
    .record(z.string(), PlaybookStageSchema)
    .superRefine((stages, context) => {
      const ids = Object.keys(stages);
      if (ids.length === 0) context.addIssue({ code: "custom", message: "at least one stage is required" });
      for (const id of ids.filter((candidate) => candidate === "" || candidate === FINALIZE)) {
        context.addIssue({ code: "custom", path: [id], message: `"${id}" cannot be a stage id ("${FINALIZE}" is the last request)` });
      }
    })
    .describe("The task's stages by stage id (stage-1, stage-2... or the task's stage_ids), in the task's stage order."),
});

/** `agent.json`: what the scripted agent writes for each stage of each task. */
export const PlaybookSchema = z
  .strictObject({
    description: z.string().optional().describe("Free text for the reader; not used."),
    /** Run in the workspace after a stage's writes; its exit status is ignored. */
    checkCommand: z
      .string()
      .min(1)
      .default(DEFAULT_CHECK_COMMAND)
      .describe("The shell command the agent runs in the workspace after a stage's writes, as an agent checks its work; its exit status is ignored."),
    tasks: z.record(z.string().min(1), PlaybookTaskSchema).describe("By task id (a task folder's name, its instance_id)."),
  })
  .superRefine((playbook, context) => {
    const seen = new Map<string, string>();
    for (const [taskId, task] of Object.entries(playbook.tasks)) {
      for (const [stageId, stage] of Object.entries(task.stages)) {
        const where = `${taskId}/${stageId}`;
        const earlier = seen.get(stage.request);
        if (earlier !== undefined) {
          context.addIssue({
            code: "custom",
            path: ["tasks", taskId, "stages", stageId, "request"],
            message: `same request as ${earlier}; the agent could not tell them apart`,
          });
        }
        seen.set(stage.request, where);
      }
    }
  });

export type Playbook = z.input<typeof PlaybookSchema>;

/** Where the format of agent.json is written down, for the end of its errors. */
const HINT = formatHint({ anchor: "agentjson", readBy: "--agent scripted and --agent faithful" });

/** Validates a playbook; throws a `suite` RcmError naming `source` and every problem, one line each. */
export function parsePlaybook(value: unknown, source = "agent.json"): z.infer<typeof PlaybookSchema> {
  const result = PlaybookSchema.safeParse(value);
  if (result.success) return result.data;
  throw new FileProblemsError({ file: source, problems: zodProblems(result.error), hint: HINT });
}

/** Reads and validates a playbook file (`agent.json`); a missing file says what it is for and what to do instead. */
export async function loadPlaybook(file: string): Promise<z.infer<typeof PlaybookSchema>> {
  return parsePlaybook(parseJson(file, await readPlaybookText(file)), file);
}

async function readPlaybookText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") {
      const problem =
        "not found: --agent scripted and --agent faithful play this file (what a correct agent writes for each stage of each task); " +
        "write it (docs/benchmark-formats.md#agentjson) or run the suite with --model <provider/model> (a suite made by bench import-swebench has none)";
      throw fail(file, problem, cause);
    }
    throw fail(file, `cannot read: ${messageOf(cause)}`, cause);
  }
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw fail(file, `not JSON: ${messageOf(cause)}`, cause);
  }
}

function fail(file: string, problem: string, cause: unknown): RcmError {
  return new FileProblemsError({ file, problems: [{ field: "(file)", problem }], cause });
}
