import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { messageOf } from "../../../kit/errors/message-of.js";
import type { RcmError } from "../../../kit/errors/rcm-error.js";
import { type SuiteProblem, suiteProblemsError } from "../check/suite-problem.js";
import { testIdProblems } from "../check/test-id-problems.js";
import { parseJsonLines } from "../suite/load-suite.js";
import type { Task } from "../suite/schema.js";
import { suiteError } from "../suite/suite-error.js";
import { writeTaskFolder } from "../suite/task-folder.js";
import { type StagesLine, StagesLineSchema, SwebenchInstanceSchema } from "./instance.js";
import { swebenchTestCommand } from "./test-command.js";

export interface ImportOptions {
  /** SWE-bench instances: JSON lines, or one JSON list. */
  instances: string;
  /** `{instance_id, stages: [{id, request}]}` per line; an instance without a line gets its problem statement as its one stage. */
  stages?: string | undefined;
  out: string;
  /** A folder of git bundles named `<owner>__<name>.bundle`; a repository without one is cloned from `repoUrl`. */
  bundles?: string | undefined;
  /** Where a repository is cloned from; `{repo}` is its owner/name. */
  repoUrl?: string | undefined;
  /** The test command, `{tests}` standing for the test files; default: the harness's command for the repository. */
  testCmd?: string | undefined;
  name?: string | undefined;
}

const DEFAULT_REPO_URL = "https://github.com/{repo}.git";

/**
 * Turns SWE-bench instances (and stages) into a suite folder; `bench make-sessions` then adds its
 * sessions. Refuses, writing nothing, when a task's test ids fail the cheap check: a test in a
 * file its test command does not run (by default the harness's command, which runs the test
 * patch's files alone, as SWE-bench does) could never pass, in any session.
 */
export async function importSwebench(options: ImportOptions): Promise<{ suite: string; tasks: number; staged: number }> {
  const out = resolve(options.out);
  const instancesFile = resolve(options.instances);
  const instances = await readInstances(instancesFile);
  const stages =
    options.stages === undefined
      ? new Map<string, StagesLine>()
      : await readStages(resolve(options.stages), new Set(instances.map((entry) => entry.value.instance_id)));
  if (await stat(join(out, "tasks")).catch(() => undefined))
    throw suiteError({ file: join(out, "tasks"), line: 0, field: "(file)", problem: "already exists: import into a new folder" });
  const bundleFor = async (repo: string): Promise<string | undefined> => {
    const bundle = options.bundles === undefined ? undefined : join(resolve(options.bundles), `${repo.replace("/", "__")}.bundle`);
    return bundle !== undefined && (await stat(bundle).catch(() => undefined))?.isFile() === true ? bundle : undefined;
  };
  const tasks: Task[] = [];
  const problems: SuiteProblem[] = [];
  let staged = 0;
  for (const { line, value: instance } of instances) {
    const split = stages.get(instance.instance_id);
    if (split) staged += 1;
    const bundleName = `${instance.repo.replace("/", "__")}.bundle`;
    const hasBundle = (await bundleFor(instance.repo)) !== undefined;
    const task: Task = {
      instance_id: instance.instance_id,
      repo: instance.repo,
      base_commit: instance.base_commit,
      patch: instance.patch,
      test_patch: instance.test_patch,
      FAIL_TO_PASS: instance.FAIL_TO_PASS,
      PASS_TO_PASS: instance.PASS_TO_PASS,
      ...(instance.version === undefined ? {} : { version: instance.version }),
      stages: split?.stages ?? [{ id: "stage-1", request: instance.problem_statement }],
      test_cmd: swebenchTestCommand({ repo: instance.repo, testPatch: instance.test_patch, template: options.testCmd }),
      ...(hasBundle ? { repo_bundle: `repos/${bundleName}` } : { repo_url: (options.repoUrl ?? DEFAULT_REPO_URL).replaceAll("{repo}", instance.repo) }),
    };
    problems.push(...testIdProblems({ task, at: { file: instancesFile, line } }));
    tasks.push(task);
  }
  if (problems.length > 0) throw importRefused(problems, options.testCmd !== undefined);
  await mkdir(out, { recursive: true });
  for (const task of tasks) {
    const bundle = await bundleFor(task.repo);
    if (bundle !== undefined && task.repo_bundle !== undefined) {
      await mkdir(join(out, "repos"), { recursive: true });
      await copyFile(bundle, join(out, task.repo_bundle));
    }
    await writeTaskFolder(out, task);
  }
  const name = options.name ?? out.split(/[\\/]/).at(-1) ?? "swebench";
  const description = `${instances.length} SWE-bench instances imported from ${options.instances}${options.stages ? ` with stages from ${options.stages}` : ""}.`;
  await writeFile(join(out, "suite.json"), `${JSON.stringify({ name, description }, null, 2)}\n`);
  return { suite: out, tasks: instances.length, staged };
}

/**
 * The refusal: every problem, one a line, and what to do. SWE-bench's harness runs the test
 * patch's files alone, so a test outside them is missing (failed) there too: the instance is
 * wrong, or its tests need a command that also runs their files.
 */
function importRefused(problems: readonly SuiteProblem[], ownCommand: boolean): RcmError {
  const advice = ownCommand
    ? "Nothing written: make --test-cmd run those files too."
    : "Nothing written. SWE-bench's harness runs only the test patch's files, so these tests would fail there too: fix the instances, or pass --test-cmd '<command> <their files> {tests}' to run those files as well.";
  return suiteProblemsError(problems, advice);
}

async function readInstances(file: string) {
  const text = await readText(file);
  // A JSON list (as `datasets` writes with to_json(lines=False)) or JSON lines.
  const lines = text.trimStart().startsWith("[") ? listAsLines(file, text) : text;
  const entries = parseJsonLines(file, lines, SwebenchInstanceSchema);
  const seen = new Map<string, number>();
  for (const { line, value } of entries) {
    const first = seen.get(value.instance_id);
    if (first !== undefined)
      throw suiteError({ file, line, field: "instance_id", problem: `duplicate instance_id "${value.instance_id}" (first on line ${first})` });
    seen.set(value.instance_id, line);
  }
  if (entries.length === 0) throw suiteError({ file, line: 0, field: "(file)", problem: "no instances" });
  return entries;
}

async function readStages(file: string, known: Set<string>): Promise<Map<string, StagesLine>> {
  const result = new Map<string, StagesLine>();
  for (const { line, value } of parseJsonLines(file, await readText(file), StagesLineSchema)) {
    const fail = (field: string, problem: string) => suiteError({ file, line, field, problem });
    if (!known.has(value.instance_id)) throw fail("instance_id", `"${value.instance_id}" is not in the instances file`);
    if (result.has(value.instance_id)) throw fail("instance_id", `duplicate instance_id "${value.instance_id}"`);
    const ids = new Set<string>();
    value.stages.forEach((stage, index) => {
      if (stage.id === "finalize") throw fail(`stages.${index}.id`, `"finalize" is reserved for the last request`);
      if (ids.has(stage.id)) throw fail(`stages.${index}.id`, `duplicate stage id "${stage.id}"`);
      ids.add(stage.id);
    });
    result.set(value.instance_id, value);
  }
  return result;
}

/** A JSON list of instances, one per line, so that errors still name an entry (as line = position + 1). */
function listAsLines(file: string, text: string): string {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (cause) {
    throw suiteError({ file, line: 0, field: "(file)", problem: `not JSON: ${messageOf(cause)}`, cause });
  }
  if (!Array.isArray(list)) throw suiteError({ file, line: 0, field: "(file)", problem: "must be JSON lines or a JSON list of instances" });
  return list.map((entry) => JSON.stringify(entry)).join("\n");
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (cause) {
    throw suiteError({ file, line: 0, field: "(file)", problem: `cannot read: ${messageOf(cause)}`, cause });
  }
}
