import { readFile } from "node:fs/promises";
import { z } from "zod";
import { FINALIZE_REQUEST } from "../suite/request-text.js";
import { FINALIZE } from "../suite/schema.js";

// `agent.json`, a suite's playbook for its scripted agents: for each stage request of each task,
// the files a correct agent writes. The replay agent plays it as is; the faithful agent also
// reads each task's `faithful/` folder (what it writes when part of the task is out of view).

export const DEFAULT_CHECK_COMMAND = "python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";

/** A path relative to the workspace that stays inside it. */
function isInsidePath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.split("/").some((part) => part === ".." || part === "." || part === "");
}

export const PlaybookStageSchema = z.strictObject({
  /** The stage's request exactly as the suite words it (the text after `<workspace>: `). */
  request: z
    .string()
    .min(1)
    .refine((request) => request === request.trim(), { message: "must not start or end with whitespace" })
    .refine((request) => request !== FINALIZE_REQUEST, { message: "is the finalization request" }),
  /** Full contents of each file after this stage, by path relative to the workspace. */
  writes: z.record(z.string(), z.string()).superRefine((writes, context) => {
    const paths = Object.keys(writes);
    if (paths.length === 0) context.addIssue({ code: "custom", message: "at least one file is required" });
    for (const path of paths.filter((candidate) => !isInsidePath(candidate))) {
      context.addIssue({ code: "custom", path: [path], message: `"${path}" must be a relative path inside the workspace` });
    }
  }),
});

export const PlaybookTaskSchema = z.strictObject({
  stages: z.record(z.string(), PlaybookStageSchema).superRefine((stages, context) => {
    const ids = Object.keys(stages);
    if (ids.length === 0) context.addIssue({ code: "custom", message: "at least one stage is required" });
    for (const id of ids.filter((candidate) => candidate === "" || candidate === FINALIZE)) {
      context.addIssue({ code: "custom", path: [id], message: `"${id}" cannot be a stage id ("${FINALIZE}" is the last request)` });
    }
  }),
});

/** `agent.json`: what the scripted agent writes for each stage of each task. */
export const PlaybookSchema = z
  .strictObject({
    description: z.string().optional(),
    /** Run in the workspace after a stage's writes; its exit status is ignored. */
    checkCommand: z.string().min(1).default(DEFAULT_CHECK_COMMAND),
    tasks: z.record(z.string().min(1), PlaybookTaskSchema),
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
export type PlaybookStage = z.infer<typeof PlaybookStageSchema>;

/** Validates a playbook; throws `Error("<source>: <path>: <message>")` on the first problem. */
export function parsePlaybook(value: unknown, source = "playbook"): z.infer<typeof PlaybookSchema> {
  const result = PlaybookSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue === undefined ? "" : issue.path.map(String).join(".");
  const message = issue?.message ?? "invalid playbook";
  throw new Error(path === "" ? `${source}: ${message}` : `${source}: ${path}: ${message}`);
}

/** Reads and validates a playbook file (`agent.json`). */
export async function loadPlaybook(file: string): Promise<z.infer<typeof PlaybookSchema>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (cause) {
    throw new Error(`${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  return parsePlaybook(value, file);
}

