import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import { type Task, TaskSchema } from "./schema.js";
import { suiteError } from "./suite-error.js";
import { readSuiteText } from "./suite-files.js";

/**
 * A task as a folder: `task.json` (the instance's fields but its texts), `stage-1.md`,
 * `stage-2.md`... (the requests, in order), `patch.diff` (the reference solution) and
 * `test_patch.diff` (the held-out tests), so a researcher adds a task by adding a folder and
 * reads its requests and patches as the files they are.
 */
export const TASKS_DIR = "tasks";
export const TASK_FILE = "task.json";
export const PATCH_FILE = "patch.diff";
export const TEST_PATCH_FILE = "test_patch.diff";
const STAGE_FILE = /^stage-(\d+)\.md$/;

/** `task.json`: the instance's fields except the requests and patches, which are files beside it. */
export const TaskFileSchema = z
  .object({
    instance_id: z.string().min(1),
    repo: z.string().min(1),
    base_commit: z.string(),
    FAIL_TO_PASS: z.array(z.string()),
    PASS_TO_PASS: z.array(z.string()),
    version: z.string().optional(),
    test_cmd: z.string(),
    repo_url: z.string().optional(),
    repo_bundle: z.string().optional(),
    image: z.string().optional(),
    /** The stages' ids, when they are not `stage-1`, `stage-2`...: one per stage file, in order. */
    stage_ids: z
      .array(z.string().min(1))
      .optional()
      .describe('The stages\' ids when they are not stage-1, stage-2...: one per stage-N.md file, in order; unique, and not "finalize".'),
  })
  .strict();

/** Reads `<suite>/tasks/<name>/`; a problem names the file and the field. */
export async function readTaskFolder(suiteDir: string, name: string): Promise<Task> {
  const dir = join(suiteDir, TASKS_DIR, name);
  const taskFile = join(dir, TASK_FILE);
  const fail = (file: string, field: string, problem: string): never => {
    throw suiteError({ file, line: 0, field, problem });
  };
  const json = parseJson(taskFile, await readSuiteText(taskFile));
  const fields = TaskFileSchema.safeParse(json);
  if (!fields.success) {
    const issue = fields.error.issues[0];
    const path = issue?.path.map(String) ?? [];
    if (issue?.code === "unrecognized_keys" && issue.keys[0] !== undefined) path.push(issue.keys[0]);
    fail(taskFile, path.join(".") || "(file)", issue?.message ?? "invalid");
    throw new Error("unreachable");
  }
  const { stage_ids: stageIDs, ...rest } = fields.data;
  if (rest.instance_id !== name) fail(taskFile, "instance_id", `"${rest.instance_id}" must be the folder's name "${name}"`);
  const numbers = (await readdir(dir))
    .flatMap((file) => {
      const found = STAGE_FILE.exec(file);
      return found ? [Number(found[1])] : [];
    })
    .sort((a, b) => a - b);
  if (numbers.length === 0) fail(join(dir, "stage-1.md"), "(file)", "a task needs at least one stage request");
  numbers.forEach((number, index) => {
    if (number !== index + 1) fail(join(dir, `stage-${index + 1}.md`), "(file)", `missing: stage files are numbered 1 to ${numbers.length} without gaps`);
  });
  if (stageIDs !== undefined && stageIDs.length !== numbers.length) fail(taskFile, "stage_ids", `has ${stageIDs.length} ids for ${numbers.length} stage files`);
  const stages = await Promise.all(
    numbers.map(async (number, index) => ({
      id: stageIDs?.[index] ?? `stage-${number}`,
      request: fromFile(await readSuiteText(join(dir, `stage-${number}.md`))),
    })),
  );
  const task = { ...rest, patch: await readSuiteText(join(dir, PATCH_FILE)), test_patch: await readSuiteText(join(dir, TEST_PATCH_FILE)), stages };
  const parsed = TaskSchema.safeParse(task);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") ?? "";
    const file =
      field === "patch"
        ? join(dir, PATCH_FILE)
        : field === "test_patch"
          ? join(dir, TEST_PATCH_FILE)
          : field.startsWith("stages.")
            ? join(dir, `stage-${Number(field.split(".")[1]) + 1}.md`)
            : taskFile;
    fail(file, file === taskFile ? field || "(file)" : "(file)", issue?.message ?? "invalid");
  }
  return parsed.data as Task;
}

/** Writes a task as its folder (the inverse of readTaskFolder). */
export async function writeTaskFolder(suiteDir: string, task: Task): Promise<void> {
  const dir = join(suiteDir, TASKS_DIR, task.instance_id);
  await mkdir(dir, { recursive: true });
  const { patch, test_patch: testPatch, stages, ...fields } = task;
  const defaultIDs = stages.every((stage, index) => stage.id === `stage-${index + 1}`);
  const file = { ...fields, ...(defaultIDs ? {} : { stage_ids: stages.map((stage) => stage.id) }) };
  await writeFile(join(dir, TASK_FILE), `${JSON.stringify(file, null, 2)}\n`);
  await writeFile(join(dir, PATCH_FILE), patch);
  await writeFile(join(dir, TEST_PATCH_FILE), testPatch);
  for (const [index, stage] of stages.entries()) await writeFile(join(dir, `stage-${index + 1}.md`), toFile(stage.request));
}

/** The task folders of a suite, by name; undefined when the suite keeps its tasks in `tasks.jsonl`. */
export async function taskFolderNames(suiteDir: string): Promise<string[] | undefined> {
  const entries = await readdir(join(suiteDir, TASKS_DIR), { withFileTypes: true }).catch(() => undefined);
  return entries
    ?.filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

// A request file ends with one newline, as text files do; the request itself is the rest.
const toFile = (request: string) => `${request}\n`;
const fromFile = (text: string) => (text.endsWith("\n") ? text.slice(0, -1) : text);

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw suiteError({ file, line: 0, field: "(file)", problem: `not JSON: ${messageOf(cause)}`, cause });
  }
}
