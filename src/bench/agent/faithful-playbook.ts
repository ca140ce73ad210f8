import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { z } from "zod";
import type { RcmError } from "../../errors/rcm-error.js";
import { suiteError } from "../suite/suite-error.js";
import { TASKS_DIR } from "../suite/task-folder.js";
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

export interface Confusion {
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

const RulesSchema = z.record(z.string(), z.string().min(1));
const ConfusionsSchema = z.array(z.strictObject({ stage: z.string().min(1), with: z.string().regex(/^[^/]+\/[^/]+$/, "must be <task>/<stage>"), shared: z.string().min(1) }));

/** Every non-empty subset of `ids`, each in their order, joined by "+". */
export function missingSets(ids: readonly string[]): string[] {
  const sets: string[] = [];
  for (let mask = 1; mask < 1 << ids.length; mask++) sets.push(ids.filter((_, index) => mask & (1 << index)).join("+"));
  return sets;
}

/** Reads a suite's `agent.json` and its tasks' `faithful/` folders; a problem names the file. */
export async function loadFaithfulPlaybook(suiteDir: string): Promise<FaithfulPlaybook> {
  const playbook = await loadPlaybook(join(suiteDir, "agent.json"));
  const requests = Object.entries(playbook.tasks).flatMap(([task, { stages }]) => Object.entries(stages).map(([stage, { request }]) => ({ where: `${task}/${stage}`, said: normalizeText(request) })));
  const rules = new Map<string, Record<string, string>>();
  for (const [taskId, task] of Object.entries(playbook.tasks)) {
    const file = join(taskDir(suiteDir, taskId), FAITHFUL_DIR, RULES_FILE);
    const read = await readJson(file, RulesSchema, `the phrase that states each stage's requirement, e.g. {"stage-1": "..."}`);
    for (const [stageId, stage] of Object.entries(task.stages)) {
      const rule = read[stageId];
      if (rule === undefined) throw problem(file, stageId, "missing: every stage needs the phrase that states its requirement");
      if (!normalizeText(stage.request).includes(normalizeText(rule))) throw problem(file, stageId, `"${rule}" is not in the stage's request (compared lower-cased, without backticks, whitespace collapsed)`);
      const elsewhere = requests.find((other) => other.where !== `${taskId}/${stageId}` && other.said.includes(normalizeText(rule)));
      if (elsewhere) throw problem(file, stageId, `"${rule}" is also in ${elsewhere.where}'s request: the phrase must name this stage alone`);
    }
    for (const stageId of Object.keys(read)) if (!Object.hasOwn(task.stages, stageId)) throw problem(file, stageId, `no such stage in agent.json's ${taskId}`);
    rules.set(taskId, read);
  }
  const ruleOf = (where: string): string | undefined => {
    const [task = "", stage = ""] = where.split("/");
    return rules.get(task)?.[stage];
  };

  const tasks = new Map<string, FaithfulTask>();
  const byRequest = new Map<string, { task: FaithfulTask; stage: FaithfulStage }>();
  for (const [taskId, task] of Object.entries(playbook.tasks)) {
    const dir = taskDir(suiteDir, taskId);
    const confusionsFile = join(dir, FAITHFUL_DIR, CONFUSIONS_FILE);
    const confusions = await readConfusions(confusionsFile);
    const ids = Object.keys(task.stages);
    for (const confusion of confusions) {
      if (!ids.includes(confusion.stage)) throw problem(confusionsFile, "stage", `"${confusion.stage}" is no stage of ${taskId}`);
    }
    const stages: FaithfulStage[] = [];
    for (const [index, stageId] of ids.entries()) {
      const stage = task.stages[stageId];
      if (stage === undefined) continue;
      const sets = missingSets(ids.slice(0, index));
      const mine = confusions.filter((confusion) => confusion.stage === stageId);
      const expected = new Set([...sets.map((set) => `without-${set}`), ...mine.map((confusion) => leakFolder(confusion.with))]);
      const found = await variantDirs(join(dir, FAITHFUL_DIR, stageId));
      for (const name of found) if (!expected.has(name)) throw problem(join(dir, FAITHFUL_DIR, stageId, name), "(folder)", `not a variant of ${stageId}: expected one of ${[...expected].join(", ") || "none"}`);
      const variant = async (name: string, what: string): Promise<Files> => {
        const variantDir = join(dir, FAITHFUL_DIR, stageId, name);
        if (!found.includes(name)) throw problem(variantDir, "(folder)", `missing: the files written at ${stageId} ${what}`);
        const files = await readTree(variantDir);
        const paths = Object.keys(files).sort().join(", ");
        const want = Object.keys(stage.writes).sort().join(", ");
        if (paths !== want) throw problem(variantDir, "(folder)", `holds ${paths || "no file"}; the stage writes ${want}`);
        return files;
      };
      const without = new Map<string, Files>();
      for (const set of sets) without.set(set, await variant(`without-${set}`, `when ${set.split("+").join(" and ")} ${set.includes("+") ? "are" : "is"} out of view`));
      const leaks: Confusion[] = [];
      for (const confusion of mine) {
        const rule = ruleOf(confusion.with);
        const file = confusionsFile;
        if (rule === undefined) throw problem(file, "with", `"${confusion.with}" is no stage of agent.json`);
        if (confusion.with.startsWith(`${taskId}/`)) throw problem(file, "with", `"${confusion.with}" is this task's own stage`);
        const shared = normalizeText(confusion.shared);
        const saidBy = (task: string) => requests.some((request) => request.where.startsWith(`${task}/`) && request.said.includes(shared));
        for (const task of [taskId, confusion.with.split("/")[0] ?? ""]) {
          if (!saidBy(task)) throw problem(file, "shared", `"${confusion.shared}" is in no request of ${task}: confusable tasks share the word`);
        }
        leaks.push({ with: confusion.with, rule, shared: confusion.shared, writes: await variant(leakFolder(confusion.with), `when ${confusion.with}'s requirement leaks in`) });
      }
      stages.push({ id: stageId, rule: rules.get(taskId)?.[stageId] ?? "", writes: stage.writes, without, confusions: leaks });
    }
    const faithful: FaithfulTask = { id: taskId, stages };
    tasks.set(taskId, faithful);
    for (const stage of stages) byRequest.set(task.stages[stage.id]?.request ?? "", { task: faithful, stage });
  }
  return { checkCommand: playbook.checkCommand, tasks, requests: byRequest };
}

/** The folder of the files written when `<task>/<stage>`'s requirement leaks in: `with-<task>.<stage>`. */
function leakFolder(where: string): string {
  return `with-${where.replace("/", ".")}`;
}

function taskDir(suiteDir: string, taskId: string): string {
  return join(suiteDir, TASKS_DIR, taskId);
}

function problem(file: string, field: string, text: string): RcmError {
  return suiteError({ file, line: 0, field, problem: `${text} (--agent faithful)` });
}

async function readJson<T>(file: string, schema: z.ZodType<T>, what: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw problem(file, "(file)", `missing: ${what}`);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw problem(file, "(file)", `not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw problem(file, issue?.path.map(String).join(".") || "(file)", issue?.message ?? "invalid");
}

async function readConfusions(file: string): Promise<z.infer<typeof ConfusionsSchema>> {
  const exists = await stat(file).then(() => true, () => false);
  return exists ? readJson(file, ConfusionsSchema, "") : [];
}

async function variantDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
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
