import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import type { RcmError } from "../../../kit/errors/rcm-error.js";
import { TASKS_DIR } from "../suite/task-folder.js";
import { type FieldProblem, FileProblemsError, formatHint, zodProblems } from "./file-problems-error.js";
import { loadPlaybook } from "./playbook.js";
import { normalizeText } from "./what-was-said.js";

// What the faithful agent knows beyond `agent.json`, read from each task's `faithful/` folder:
//   rules.json                     {"stage-1": "<phrase>", ...}: the words that state each
//                                  stage's requirement; seeing them is seeing the stage
//   <stage>/without-<stages>/...   the files it writes at <stage> when those earlier stages
//                                  ("stage-1+stage-2") are out of view
//   confusions.json                [{"stage", "with": "<task>/<stage>", "shared"}]: another
//                                  task's requirement it applies here when it sees it
//   <stage>/with-<task>.<stage>/...  the files it writes then

export type Files = Record<string, string>;

interface Confusion {
  /** The other task's stage whose requirement leaks in, `<task>/<stage>`. */
  with: string;
  /** That stage's rule phrase: seeing it is what makes the agent apply it. */
  rule: string;
  /** The word both tasks' requests use that makes them confusable. */
  shared: string;
  writes: Files;
}

export interface FaithfulStage {
  id: string;
  rule: string;
  writes: Files;
  /** By the earlier stages out of view, joined by "+" in stage order. */
  without: ReadonlyMap<string, Files>;
  confusions: readonly Confusion[];
}

export interface FaithfulTask {
  id: string;
  /** In the order the playbook lists them. */
  stages: readonly FaithfulStage[];
}

export interface FaithfulPlaybook {
  checkCommand: string;
  tasks: ReadonlyMap<string, FaithfulTask>;
  /** Each stage request's task and stage, by the request's text. */
  requests: ReadonlyMap<string, { task: FaithfulTask; stage: FaithfulStage }>;
}

export const FAITHFUL_DIR = "faithful";
const RULES_FILE = "rules.json";
const CONFUSIONS_FILE = "confusions.json";

/** `tasks/<id>/faithful/rules.json`: for each stage, the phrase of its request that states its requirement. */
export const FaithfulRulesSchema = z
  .record(
    z.string().describe("A stage id of the task, as agent.json names it."),
    z
      .string()
      .min(1)
      .describe(
        "A phrase of the stage's request that states its requirement and is in no other request of agent.json (compared lower-cased, without backticks, whitespace collapsed); the stage counts as seen when a call's words contain it.",
      ),
  )
  .describe("Every stage of the task in agent.json, and no other, with its rule phrase.");

/** One entry of `tasks/<id>/faithful/confusions.json`. */
const ConfusionSchema = z
  .strictObject({
    stage: z.string().min(1).describe("The stage of this task at which the other requirement leaks in."),
    with: z
      .string()
      .regex(/^[^/]+\/[^/]+$/, "must be <task>/<stage>")
      .describe("The other task's stage whose requirement the agent applies here, as <task>/<stage> (a stage of another task in agent.json)."),
    shared: z.string().min(1).describe("A word both tasks' requests use (compared as rules are), which is what makes them confusable."),
  })
  .describe(
    "Another task's requirement the faithful agent applies at `stage` when it sees that requirement's rule phrase; its files are in <stage>/with-<task>.<stage>/.",
  );

/** `tasks/<id>/faithful/confusions.json` (optional): the task's confusions with other tasks. */
export const ConfusionsSchema = z.array(ConfusionSchema);

/** Every non-empty subset of `ids`, each in their order, joined by "+". */
export function missingSets(ids: readonly string[]): string[] {
  const sets: string[] = [];
  for (let mask = 1; mask < 1 << ids.length; mask++) sets.push(ids.filter((_, index) => mask & (1 << index)).join("+"));
  return sets;
}

type PlaybookTasks = Awaited<ReturnType<typeof loadPlaybook>>["tasks"];
type PlaybookTask = PlaybookTasks[string];
interface SaidRequest {
  where: string;
  said: string;
}
/** A confusions.json entry, checked, with the other stage's rule phrase. */
type DeclaredConfusion = Omit<Confusion, "writes"> & { stage: string };

/**
 * Reads a suite's `agent.json` and its tasks' `faithful/` folders. Every problem is a `suite`
 * error naming the file (or the task's `faithful/` folder for its variant folders) and lists all
 * of that file's problems at once.
 */
export async function loadFaithfulPlaybook(suiteDir: string): Promise<FaithfulPlaybook> {
  const playbook = await loadPlaybook(join(suiteDir, "agent.json"));
  const requests: SaidRequest[] = Object.entries(playbook.tasks).flatMap(([task, { stages }]) =>
    Object.entries(stages).map(([stage, { request }]) => ({ where: `${task}/${stage}`, said: normalizeText(request) })),
  );
  const rules = new Map<string, Record<string, string>>();
  for (const [taskId, task] of Object.entries(playbook.tasks))
    rules.set(taskId, await readRules({ file: join(taskDir(suiteDir, taskId), FAITHFUL_DIR, RULES_FILE), taskId, task, requests }));
  const ruleOf = (where: string): string | undefined => {
    const [task = "", stage = ""] = where.split("/");
    return rules.get(task)?.[stage];
  };

  const tasks = new Map<string, FaithfulTask>();
  const byRequest = new Map<string, { task: FaithfulTask; stage: FaithfulStage }>();
  for (const [taskId, task] of Object.entries(playbook.tasks)) {
    const dir = taskDir(suiteDir, taskId);
    const confusions = await readConfusions({ file: join(dir, FAITHFUL_DIR, CONFUSIONS_FILE), taskId, task, requests, ruleOf });
    const stages = await readVariants({ faithfulDir: join(dir, FAITHFUL_DIR), task, rules: rules.get(taskId) ?? {}, confusions });
    const faithful: FaithfulTask = { id: taskId, stages };
    tasks.set(taskId, faithful);
    for (const stage of stages) byRequest.set(task.stages[stage.id]?.request ?? "", { task: faithful, stage });
  }
  return { checkCommand: playbook.checkCommand, tasks, requests: byRequest };
}

/** A task's rules.json, checked against agent.json: a phrase for every stage, in its request and in no other. */
async function readRules(options: { file: string; taskId: string; task: PlaybookTask; requests: readonly SaidRequest[] }): Promise<Record<string, string>> {
  const { file, taskId, task, requests } = options;
  const read = await readJson({
    file,
    schema: FaithfulRulesSchema,
    anchor: "faithfulrulesjson",
    missing: `not found: --agent faithful reads every task's faithful/rules.json (for each stage, the phrase of its request that states its requirement, e.g. {"stage-1": "..."}); write it (docs/benchmark-formats.md#faithfulrulesjson) or run with --agent scripted or --model <provider/model>`,
  });
  const problems: FieldProblem[] = [];
  for (const [stageId, stage] of Object.entries(task.stages)) {
    const rule = read[stageId];
    if (rule === undefined) {
      problems.push({ field: stageId, problem: "missing: every stage needs the phrase that states its requirement" });
      continue;
    }
    if (!normalizeText(stage.request).includes(normalizeText(rule))) {
      problems.push({ field: stageId, problem: `"${rule}" is not in the stage's request (compared lower-cased, without backticks, whitespace collapsed)` });
    }
    const elsewhere = requests.find((other) => other.where !== `${taskId}/${stageId}` && other.said.includes(normalizeText(rule)));
    if (elsewhere) problems.push({ field: stageId, problem: `"${rule}" is also in ${elsewhere.where}'s request: the phrase must name this stage alone` });
  }
  for (const stageId of Object.keys(read))
    if (!Object.hasOwn(task.stages, stageId)) problems.push({ field: stageId, problem: `no such stage in agent.json's ${taskId}` });
  if (problems.length > 0) throw faithfulError(file, problems, "faithfulrulesjson");
  return read;
}

/** A task's confusions.json (none when absent), every entry checked against agent.json and the rules. */
async function readConfusions(options: {
  file: string;
  taskId: string;
  task: PlaybookTask;
  requests: readonly SaidRequest[];
  ruleOf: (where: string) => string | undefined;
}): Promise<DeclaredConfusion[]> {
  const { file, taskId, task, requests, ruleOf } = options;
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) return [];
  const read = await readJson({ file, schema: ConfusionsSchema, anchor: "faithfulconfusionsjson", missing: "not found" });
  const problems: FieldProblem[] = [];
  const confusions: DeclaredConfusion[] = [];
  read.forEach((confusion, index) => {
    const before = problems.length;
    if (!Object.hasOwn(task.stages, confusion.stage))
      problems.push({ field: `${index}.stage`, problem: `"${confusion.stage}" is no stage of ${taskId} in agent.json` });
    const rule = ruleOf(confusion.with);
    if (confusion.with.startsWith(`${taskId}/`)) problems.push({ field: `${index}.with`, problem: `"${confusion.with}" is this task's own stage` });
    else if (rule === undefined) problems.push({ field: `${index}.with`, problem: `"${confusion.with}" is no stage of agent.json` });
    const shared = normalizeText(confusion.shared);
    const saidBy = (task: string) => requests.some((request) => request.where.startsWith(`${task}/`) && request.said.includes(shared));
    // The other task's words are checked once `with` names a stage of it.
    for (const other of new Set([taskId, ...(rule === undefined ? [] : [confusion.with.split("/")[0] ?? ""])])) {
      if (!saidBy(other))
        problems.push({ field: `${index}.shared`, problem: `"${confusion.shared}" is in no request of ${other}: confusable tasks share the word` });
    }
    if (problems.length === before && rule !== undefined) confusions.push({ stage: confusion.stage, with: confusion.with, rule, shared: confusion.shared });
  });
  if (problems.length > 0) throw faithfulError(file, problems, "faithfulconfusionsjson");
  return confusions;
}

/**
 * A task's stages with their variant folders under `faithful/`: `<stage>/without-<stages>/` for
 * every set of earlier stages out of view, `<stage>/with-<task>.<stage>/` for every confusion,
 * each holding exactly the files the stage writes; all their problems reported at once.
 */
async function readVariants(options: {
  faithfulDir: string;
  task: PlaybookTask;
  rules: Record<string, string>;
  confusions: readonly DeclaredConfusion[];
}): Promise<FaithfulStage[]> {
  const { faithfulDir, task, rules, confusions } = options;
  const problems: FieldProblem[] = [];
  const ids = Object.keys(task.stages);
  const stages: FaithfulStage[] = [];
  for (const [index, stageId] of ids.entries()) {
    const stage = task.stages[stageId];
    if (stage === undefined) continue;
    const sets = missingSets(ids.slice(0, index));
    const mine = confusions.filter((confusion) => confusion.stage === stageId);
    const expected = new Set([...sets.map((set) => `without-${set}`), ...mine.map((confusion) => leakFolder(confusion.with))]);
    const found = await variantDirs(join(faithfulDir, stageId));
    for (const name of found) {
      if (!expected.has(name))
        problems.push({ field: `${stageId}/${name}`, problem: `not a variant of ${stageId}: expected one of ${[...expected].join(", ") || "none"}` });
    }
    const variant = async (name: string, what: string): Promise<Files> => {
      if (!found.includes(name)) {
        problems.push({ field: `${stageId}/${name}`, problem: `missing: the files written at ${stageId} ${what}` });
        return {};
      }
      const files = await readTree(join(faithfulDir, stageId, name));
      const paths = Object.keys(files).sort().join(", ");
      const want = Object.keys(stage.writes).sort().join(", ");
      if (paths !== want) problems.push({ field: `${stageId}/${name}`, problem: `holds ${paths || "no file"}; the stage writes ${want}` });
      return files;
    };
    const without = new Map<string, Files>();
    for (const set of sets)
      without.set(set, await variant(`without-${set}`, `when ${set.split("+").join(" and ")} ${set.includes("+") ? "are" : "is"} out of view`));
    const leaks: Confusion[] = [];
    for (const confusion of mine) {
      leaks.push({
        with: confusion.with,
        rule: confusion.rule,
        shared: confusion.shared,
        writes: await variant(leakFolder(confusion.with), `when ${confusion.with}'s requirement leaks in`),
      });
    }
    stages.push({ id: stageId, rule: rules[stageId] ?? "", writes: stage.writes, without, confusions: leaks });
  }
  if (problems.length > 0) throw faithfulError(faithfulDir, problems, "variant-folders");
  return stages;
}

/** The folder of the files written when `<task>/<stage>`'s requirement leaks in: `with-<task>.<stage>`. */
function leakFolder(where: string): string {
  return `with-${where.replace("/", ".")}`;
}

function taskDir(suiteDir: string, taskId: string): string {
  return join(suiteDir, TASKS_DIR, taskId);
}

function faithfulError(file: string, problems: readonly FieldProblem[], anchor: string, cause?: unknown): RcmError {
  return new FileProblemsError({ file, problems, hint: formatHint({ anchor, readBy: "--agent faithful" }), cause });
}

/** Reads and validates one JSON file of a `faithful/` folder, reporting every problem of the file at once. */
async function readJson<T>(options: { file: string; schema: z.ZodType<T>; anchor: string; missing: string }): Promise<T> {
  const { file, schema, anchor, missing } = options;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    // A missing file's problem says itself what the file is for and where its format is.
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") throw new FileProblemsError({ file, problems: [{ field: "(file)", problem: missing }], cause });
    throw faithfulError(file, [{ field: "(file)", problem: `cannot read: ${messageOf(cause)}` }], anchor, cause);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw faithfulError(file, [{ field: "(file)", problem: `not JSON: ${messageOf(cause)}` }], anchor, cause);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw faithfulError(file, zodProblems(parsed.error), anchor);
}

async function variantDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** path -> UTF-8 content of every file under `root`, paths relative to it with "/". */
async function readTree(root: string): Promise<Files> {
  const files: Files = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(root, path).split("\\").join("/")] = await readFile(path, "utf8");
    }
  };
  await walk(root);
  return files;
}
