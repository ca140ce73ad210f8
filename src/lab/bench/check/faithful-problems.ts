import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import { FAITHFUL_DIR, missingSets } from "../agent/faithful-playbook.js";
import { normalizeText } from "../agent/what-was-said.js";
import type { Suite, Task } from "../suite/schema.js";
import { TASKS_DIR } from "../suite/task-folder.js";
import type { ParsedPlaybook } from "./playbook-problems.js";
import type { SuiteProblem } from "./suite-problem.js";

const RulesSchema = z.record(z.string(), z.string().min(1));
const ConfusionsSchema = z.array(z.strictObject({ stage: z.string().min(1), with: z.string().min(1), shared: z.string().min(1) }));
type Confusions = z.infer<typeof ConfusionsSchema>;

/**
 * The problems of the tasks' `faithful/` folders (none when no task has one; every task needs
 * one when any has): rules.json gives each stage of the suite a phrase of its own request and
 * names no other stage; confusions.json names stages of the task and, in `with`, another
 * task's existing stage; and each stage has exactly the variant folders the faithful agent
 * reads (`without-<earlier stages>` for every set of earlier stages out of view,
 * `with-<task>.<stage>` for each confusion), each holding the files the stage writes in
 * agent.json.
 */
export async function faithfulProblems(options: { suite: Suite; playbook?: ParsedPlaybook | undefined }): Promise<SuiteProblem[]> {
  const { suite, playbook } = options;
  const present = await tasksWithFaithfulFolder(suite);
  if (present.size === 0) return [];
  const problems: SuiteProblem[] = [];
  for (const task of suite.tasks) {
    const dir = faithfulDir(suite, task);
    if (!present.has(task.instance_id)) {
      problems.push({
        file: dir,
        line: 0,
        field: "(folder)",
        problem: "missing: other tasks have a faithful/ folder, and the faithful agent needs one for every task",
      });
      continue;
    }
    problems.push(...(await rulesProblems({ suite, task, dir })));
    const confusions = await readConfusions({ suite, task, dir, problems });
    problems.push(...(await variantProblems({ task, dir, confusions, playbook })));
  }
  return problems;
}

/** The ids of the tasks that have a `faithful/` folder. */
export async function tasksWithFaithfulFolder(suite: Suite): Promise<Set<string>> {
  const present = new Set<string>();
  for (const task of suite.tasks) if ((await stat(faithfulDir(suite, task)).catch(() => undefined))?.isDirectory()) present.add(task.instance_id);
  return present;
}

function faithfulDir(suite: Suite, task: Task): string {
  return join(suite.dir, TASKS_DIR, task.instance_id, FAITHFUL_DIR);
}

async function rulesProblems(options: { suite: Suite; task: Task; dir: string }): Promise<SuiteProblem[]> {
  const { suite, task, dir } = options;
  const file = join(dir, "rules.json");
  const fail = (field: string, problem: string): SuiteProblem => ({ file, line: 0, field, problem });
  const rules = await readJson(file, RulesSchema);
  if ("problem" in rules) return [fail(rules.field, rules.problem)];
  const problems: SuiteProblem[] = [];
  for (const stageId of Object.keys(rules.value)) {
    if (!task.stages.some((stage) => stage.id === stageId)) problems.push(fail(stageId, `no such stage of ${task.instance_id}`));
  }
  for (const stage of task.stages) {
    const rule = rules.value[stage.id];
    if (rule === undefined) {
      problems.push(fail(stage.id, "missing: the phrase that states the stage's requirement"));
      continue;
    }
    const phrase = normalizeText(rule);
    if (!normalizeText(stage.request).includes(phrase))
      problems.push(fail(stage.id, `"${rule}" is not in the stage's request (compared lower-cased, without backticks, whitespace collapsed)`));
    const elsewhere = suite.tasks.flatMap((other) =>
      other.stages.map((otherStage) => ({ where: `${other.instance_id}/${otherStage.id}`, request: otherStage.request })),
    );
    const also = elsewhere.find((other) => other.where !== `${task.instance_id}/${stage.id}` && normalizeText(other.request).includes(phrase));
    if (also !== undefined) problems.push(fail(stage.id, `"${rule}" is also in ${also.where}'s request: the phrase must name this stage alone`));
  }
  return problems;
}

async function readConfusions(options: { suite: Suite; task: Task; dir: string; problems: SuiteProblem[] }): Promise<Confusions> {
  const { suite, task, dir, problems } = options;
  const file = join(dir, "confusions.json");
  if ((await stat(file).catch(() => undefined)) === undefined) return [];
  const read = await readJson(file, ConfusionsSchema);
  if ("problem" in read) {
    problems.push({ file, line: 0, field: read.field, problem: read.problem });
    return [];
  }
  const stages = new Set(suite.tasks.flatMap((other) => other.stages.map((stage) => `${other.instance_id}/${stage.id}`)));
  read.value.forEach((confusion, index) => {
    if (!task.stages.some((stage) => stage.id === confusion.stage))
      problems.push({ file, line: 0, field: `${index}.stage`, problem: `"${confusion.stage}" is no stage of ${task.instance_id}` });
    if (!stages.has(confusion.with)) problems.push({ file, line: 0, field: `${index}.with`, problem: `"${confusion.with}" is no <task>/<stage> of the suite` });
    else if (confusion.with.startsWith(`${task.instance_id}/`))
      problems.push({ file, line: 0, field: `${index}.with`, problem: `"${confusion.with}" is this task's own stage` });
  });
  return read.value;
}

async function variantProblems(options: { task: Task; dir: string; confusions: Confusions; playbook?: ParsedPlaybook | undefined }): Promise<SuiteProblem[]> {
  const { task, dir, confusions, playbook } = options;
  const problems: SuiteProblem[] = [];
  const ids = task.stages.map((stage) => stage.id);
  for (const [index, stageId] of ids.entries()) {
    const needed = new Map<string, string>();
    for (const set of missingSets(ids.slice(0, index)))
      needed.set(`without-${set}`, `when ${set.split("+").join(" and ")} ${set.includes("+") ? "are" : "is"} out of view`);
    for (const confusion of confusions.filter((candidate) => candidate.stage === stageId))
      needed.set(`with-${confusion.with.replace("/", ".")}`, `when ${confusion.with}'s requirement leaks in`);
    const stageDir = join(dir, stageId);
    const found = await folderNames(stageDir);
    for (const name of found) {
      if (!needed.has(name))
        problems.push({
          file: join(stageDir, name),
          line: 0,
          field: "(folder)",
          problem: `not a variant of ${stageId}: expected one of ${[...needed.keys()].join(", ") || "none"}`,
        });
    }
    const writes = playbook?.tasks[task.instance_id]?.stages[stageId]?.writes;
    for (const [name, when] of needed) {
      const variant = join(stageDir, name);
      if (!found.includes(name)) {
        problems.push({ file: variant, line: 0, field: "(folder)", problem: `missing: the files the faithful agent writes at ${stageId} ${when}` });
        continue;
      }
      if (writes === undefined) continue;
      const paths = (await filePaths(variant)).sort().join(", ");
      const want = Object.keys(writes).sort().join(", ");
      if (paths !== want)
        problems.push({ file: variant, line: 0, field: "(folder)", problem: `holds ${paths || "no file"}; the stage writes ${want} (agent.json)` });
    }
  }
  return problems;
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<{ value: T } | { field: string; problem: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { field: "(file)", problem: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : `cannot read: ${String(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { field: "(file)", problem: `not JSON: ${messageOf(error)}` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  return { field: issue?.path.map(String).join(".") || "(file)", problem: issue?.message ?? "invalid" };
}

async function folderNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Every file under `root`, relative to it with "/". */
async function filePaths(root: string, prefix = ""): Promise<string[]> {
  const paths: string[] = [];
  for (const entry of await readdir(join(root, prefix), { withFileTypes: true })) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) paths.push(...(await filePaths(root, path)));
    else paths.push(path);
  }
  return paths;
}
