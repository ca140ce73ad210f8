import { stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import { jsonlLines } from "../../jsonl/read-jsonl.js";
import { isTestPath } from "../patch/is-test-path.js";
import { patchFiles } from "../patch/patch-files.js";
import type { ScheduleEntry, SessionSpec, Suite, SuiteMeta, Task } from "./schema.js";
import { FINALIZE, SessionSpecSchema, SuiteMetaSchema, TaskSchema } from "./schema.js";
import { suiteError } from "./suite-error.js";
import { readSuiteText } from "./suite-files.js";
import { readTaskFolder, TASK_FILE, TASKS_DIR, taskFolderNames } from "./task-folder.js";

/** One validated line of a JSON-lines file, with its 1-based line number. */
export interface JsonLine<T> {
  line: number;
  value: T;
}

/**
 * Parses a JSON-lines text (one object per line, blank lines skipped) and validates every line
 * with `schema`; throws a `suite` RcmError naming `file`, the line and the field of the first problem.
 */
export function parseJsonLines<T>(file: string, text: string, schema: z.ZodType<T>): JsonLine<T>[] {
  return jsonlLines(text).map(({ line, text: raw }) => ({ line, value: parseJsonValue({ file, line, text: raw, schema }) }));
}

/** Reads and validates a suite directory's tasks (`tasks/<id>/` folders, or a legacy `tasks.jsonl`), with the checks that need only tasks. */
export async function loadTasks(dir: string): Promise<Task[]> {
  return (await readTasks(dir)).map((entry) => entry.value);
}

/** Reads and validates a whole suite directory: `suite.json`, its tasks and `sessions.jsonl`. */
export async function loadSuite(dir: string): Promise<Suite> {
  const meta = await readMeta(dir);
  const tasks = await readTasks(dir);
  const file = join(dir, "sessions.jsonl");
  const sessions = parseJsonLines(file, await readSuiteText(file), SessionSpecSchema);
  checkSessions({ file, sessions, tasks: new Map(tasks.map((entry) => [entry.value.instance_id, entry.value])) });
  return { dir, meta, tasks: tasks.map((entry) => entry.value), sessions: sessions.map((entry) => entry.value) };
}

async function readMeta(dir: string): Promise<SuiteMeta> {
  const file = join(dir, "suite.json");
  return parseJsonValue({ file, line: 0, text: await readSuiteText(file), schema: SuiteMetaSchema });
}

/** A task with where it came from: its folder's task.json (line 0), or its line of tasks.jsonl. */
interface TaskEntry extends JsonLine<Task> {
  file: string;
}

async function readTasks(dir: string): Promise<TaskEntry[]> {
  const folders = await taskFolderNames(dir);
  const tasks: TaskEntry[] =
    folders === undefined
      ? parseJsonLines(join(dir, "tasks.jsonl"), await readSuiteText(join(dir, "tasks.jsonl")), TaskSchema).map((entry) => ({
          ...entry,
          file: join(dir, "tasks.jsonl"),
        }))
      : await Promise.all(folders.map(async (name) => ({ line: 0, value: await readTaskFolder(dir, name), file: join(dir, TASKS_DIR, name, TASK_FILE) })));
  const firstLine = new Map<string, number>();
  for (const { line, value: task, file } of tasks) {
    const fail = failAt(file, line);
    const seen = firstLine.get(task.instance_id);
    if (seen !== undefined) fail("instance_id", `duplicate instance_id "${task.instance_id}" (first on line ${seen})`);
    firstLine.set(task.instance_id, line);
    const stageIndex = new Map<string, number>();
    task.stages.forEach((stage, index) => {
      const earlier = stageIndex.get(stage.id);
      if (earlier !== undefined) fail(`stages.${index}.id`, `duplicate stage id "${stage.id}" (also stages.${earlier}.id)`);
      stageIndex.set(stage.id, index);
    });
    if (task.repo_bundle !== undefined) {
      const problem = await bundleProblem(dir, task.repo_bundle);
      if (problem !== undefined) fail("repo_bundle", problem);
    }
  }
  return tasks;
}

async function bundleProblem(dir: string, bundle: string): Promise<string | undefined> {
  if (isAbsolute(bundle)) return `must be a path relative to the suite directory, not "${bundle}"`;
  const inside = relative(resolve(dir), resolve(dir, bundle));
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return `"${bundle}" leaves the suite directory`;
  }
  const found = await stat(resolve(dir, bundle)).catch(() => undefined);
  if (found === undefined) return `"${bundle}" does not exist`;
  if (!found.isFile()) return `"${bundle}" is not a file`;
  return undefined;
}

function parseJsonValue<T>(options: { file: string; line: number; text: string; schema: z.ZodType<T> }): T {
  const { file, line, text, schema } = options;
  const whole = line === 0 ? "(file)" : "(line)";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    const reason = messageOf(cause);
    throw suiteError({ file, line, field: whole, problem: `not JSON: ${reason}`, cause });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw suiteError({ file, line, field: whole, problem: "invalid" });
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys" && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  throw suiteError({ file, line, field: path.length === 0 ? whole : path.join("."), problem: issue.message });
}

/** The non-test files a reference patch changes. */
function sourceFiles(task: Task): string[] {
  return patchFiles(task.patch).filter((path) => !isTestPath(path));
}

function focusProjection(session: SessionSpec): { index: number; entry: ScheduleEntry }[] {
  return session.schedule.flatMap((entry, index) => (entry.task === session.focus ? [{ index, entry }] : []));
}

function checkSessions(options: { file: string; sessions: JsonLine<SessionSpec>[]; tasks: Map<string, Task> }): void {
  const { file, sessions, tasks } = options;
  const idLine = new Map<string, number>();
  const conditionLine = new Map<string, number>();
  for (const { line, value: session } of sessions) {
    const fail = failAt(file, line);
    const seen = idLine.get(session.session_id);
    if (seen !== undefined) fail("session_id", `duplicate session_id "${session.session_id}" (first on line ${seen})`);
    idLine.set(session.session_id, line);
    const pair = `${session.focus}\u0000${session.condition}`;
    const pairLine = conditionLine.get(pair);
    if (pairLine !== undefined) fail("condition", `focus "${session.focus}" already has a ${session.condition} session (line ${pairLine})`);
    conditionLine.set(pair, line);
    checkReferences({ session, tasks, fail });
    checkFinalize({ session, fail });
    checkCondition({ session, fail });
    checkDisjointPatches({ session, tasks, fail });
  }
  // Projections last, uninterrupted sessions first, so a twin is known to be valid before a
  // switched session is compared with it.
  const twins = new Map<string, SessionSpec>();
  for (const { line, value: session } of sessions) {
    if (session.condition !== "uninterrupted") continue;
    checkProjection({ session, tasks, fail: failAt(file, line) });
    twins.set(session.focus, session);
  }
  for (const { line, value: session } of sessions) {
    if (session.condition !== "switched") continue;
    checkProjection({ session, tasks, twin: twins.get(session.focus), fail: failAt(file, line) });
  }
}

type Fail = (field: string, problem: string) => never;

function failAt(file: string, line: number): Fail {
  return (field, problem) => {
    throw suiteError({ file, line, field, problem });
  };
}

function checkReferences(options: { session: SessionSpec; tasks: Map<string, Task>; fail: Fail }): void {
  const { session, tasks, fail } = options;
  if (!tasks.has(session.focus)) fail("focus", `unknown task "${session.focus}"`);
  const listed = new Set<string>();
  session.interruptions.forEach((id, index) => {
    if (!tasks.has(id)) fail(`interruptions.${index}`, `unknown task "${id}"`);
    if (id === session.focus) fail(`interruptions.${index}`, `the focus "${id}" cannot interrupt itself`);
    if (listed.has(id)) fail(`interruptions.${index}`, `duplicate interruption "${id}"`);
    listed.add(id);
  });
  session.schedule.forEach((entry, index) => {
    const task = tasks.get(entry.task);
    if (task === undefined) {
      fail(`schedule.${index}.task`, `unknown task "${entry.task}"`);
      return;
    }
    if (entry.stage !== FINALIZE && !task.stages.some((stage) => stage.id === entry.stage)) {
      fail(`schedule.${index}.stage`, `unknown stage "${entry.stage}" of task "${entry.task}"`);
    }
  });
}

function checkFinalize(options: { session: SessionSpec; fail: Fail }): void {
  const { session, fail } = options;
  const last = session.schedule.length - 1;
  session.schedule.forEach((entry, index) => {
    if (index < last && entry.stage === FINALIZE) fail(`schedule.${index}.stage`, "finalize must be last");
  });
  const final = session.schedule[last];
  if (final === undefined || final.stage !== FINALIZE) {
    fail(`schedule.${last}.stage`, `finalize must be last: the schedule must end with {task: "${session.focus}", stage: "${FINALIZE}"}`);
  } else if (final.task !== session.focus) {
    fail(`schedule.${last}.task`, `finalize must be last and for the focus "${session.focus}", not "${final.task}"`);
  }
}

function checkCondition(options: { session: SessionSpec; fail: Fail }): void {
  const { session, fail } = options;
  if (session.condition === "uninterrupted") {
    if (session.interruptions.length > 0) fail("interruptions", "an uninterrupted session has no interruptions");
    session.schedule.forEach((entry, index) => {
      if (entry.task !== session.focus) fail(`schedule.${index}.task`, `an uninterrupted session schedules only its focus, not "${entry.task}"`);
    });
    return;
  }
  if (session.interruptions.length === 0) fail("interruptions", "a switched session needs at least one interruption");
  const interruptions = new Set(session.interruptions);
  const scheduled = new Set<string>();
  session.schedule.forEach((entry, index) => {
    if (entry.task === session.focus) return;
    if (!interruptions.has(entry.task)) fail(`schedule.${index}.task`, `task "${entry.task}" is not one of the interruptions`);
    scheduled.add(entry.task);
  });
  session.interruptions.forEach((id, index) => {
    if (!scheduled.has(id)) fail(`interruptions.${index}`, `interruption "${id}" is never scheduled`);
  });
}

function checkDisjointPatches(options: { session: SessionSpec; tasks: Map<string, Task>; fail: Fail }): void {
  const { session, tasks, fail } = options;
  const focus = tasks.get(session.focus);
  if (focus === undefined) return;
  const focusFiles = new Set(sourceFiles(focus));
  session.interruptions.forEach((id, index) => {
    const task = tasks.get(id);
    const shared = task === undefined ? undefined : sourceFiles(task).find((path) => focusFiles.has(path));
    if (shared !== undefined) fail(`interruptions.${index}`, `interruption ${id} touches ${shared}, which the focus changes`);
  });
}

function checkProjection(options: { session: SessionSpec; tasks: Map<string, Task>; twin?: SessionSpec | undefined; fail: Fail }): void {
  const { session, tasks, twin, fail } = options;
  const projection = focusProjection(session);
  const expected =
    twin === undefined ? (tasks.get(session.focus)?.stages.map((stage) => stage.id) ?? []).concat(FINALIZE) : twin.schedule.map((entry) => entry.stage);
  const against = twin === undefined ? "the focus's stages then finalize" : `its uninterrupted twin "${twin.session_id}"`;
  const shown = `[${projection.map(({ entry }) => entry.stage).join(", ")}] instead of [${expected.join(", ")}]`;
  const length = Math.max(projection.length, expected.length);
  for (let position = 0; position < length; position += 1) {
    const actual = projection[position];
    if (actual?.entry.stage === expected[position]) continue;
    const field = actual === undefined ? "schedule" : `schedule.${actual.index}.stage`;
    fail(field, `projection onto the focus differs from ${against}: ${shown}`);
  }
}
