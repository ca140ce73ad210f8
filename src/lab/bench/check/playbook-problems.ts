import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { z } from "zod";
import { messageOf } from "../../../kit/errors/message-of.js";
import { PlaybookSchema } from "../agent/playbook.js";
import type { Suite, Task } from "../suite/schema.js";
import { TASK_FILE } from "../suite/task-folder.js";
import { clipDifference } from "./clip-difference.js";
import { jsonKeyLine } from "./json-key-line.js";
import { placeOf } from "./suite-places.js";
import type { Place, SuiteProblem } from "./suite-problem.js";

export const PLAYBOOK_FILE = "agent.json";
export type ParsedPlaybook = z.infer<typeof PlaybookSchema>;

/**
 * The problems of a suite's `agent.json` (none when there is none): its schema's, then every
 * task and stage of the suite needs an entry whose request is the stage's request as the agent
 * receives it (a request the scripted agents do not recognise makes them write nothing), no
 * entry names an unknown task or stage, and the stages are listed in the suite's order (the
 * faithful agent reads what is out of view from it). Returns the playbook when it parsed.
 */
export async function playbookProblems(options: {
  suite: Suite;
  places: Map<string, Place>;
}): Promise<{ problems: SuiteProblem[]; playbook?: ParsedPlaybook }> {
  const { suite, places } = options;
  const file = join(suite.dir, PLAYBOOK_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { problems: [] };
  }
  const at = (path: readonly string[], field: string, problem: string): SuiteProblem => ({ file, line: jsonKeyLine(text, path), field, problem });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [{ file, line: 0, field: "(file)", problem: `not JSON: ${messageOf(error)}` }] };
  }
  const parsed = PlaybookSchema.safeParse(json);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => at(issue.path.map(String), issue.path.map(String).join(".") || "(file)", issue.message)) };
  }
  const playbook = parsed.data;
  const problems: SuiteProblem[] = [];
  const suiteTasks = new Map(suite.tasks.map((task) => [task.instance_id, task]));
  for (const task of suite.tasks) {
    const entry = playbook.tasks[task.instance_id];
    const taskPath = ["tasks", task.instance_id];
    if (entry === undefined) {
      problems.push(at(["tasks"], `tasks.${task.instance_id}`, "missing: the suite has this task; the scripted agents would write nothing for it"));
      continue;
    }
    task.stages.forEach((stage, index) => {
      const written = entry.stages[stage.id];
      const field = `tasks.${task.instance_id}.stages.${stage.id}`;
      if (written === undefined) {
        problems.push(at([...taskPath, "stages"], field, "missing: the suite has this stage; the scripted agents would write nothing at it"));
        return;
      }
      // What the agent receives: the request after `<workspace>: `, trimmed (parseRequestText).
      const received = stage.request.trim();
      if (written.request === received) return;
      const [ours, theirs] = clipDifference(written.request, received);
      const source = stageSource(placeOf(places, task.instance_id, suite.dir), task, index);
      problems.push(
        at(
          [...taskPath, "stages", stage.id, "request"],
          `${field}.request`,
          `differs from ${source}: agent.json has ${ours}, the suite ${theirs}; the scripted agents would write nothing at this stage`,
        ),
      );
    });
    for (const stageId of Object.keys(entry.stages)) {
      if (!task.stages.some((stage) => stage.id === stageId))
        problems.push({
          ...at([...taskPath, "stages", stageId], `tasks.${task.instance_id}.stages.${stageId}`, `no such stage of ${task.instance_id} in the suite (unused)`),
          stopsRun: false,
        });
    }
    const listed = Object.keys(entry.stages).filter((id) => task.stages.some((stage) => stage.id === id));
    const order = task.stages.map((stage) => stage.id).filter((id) => listed.includes(id));
    if (listed.join("\n") !== order.join("\n")) {
      problems.push(
        at(
          [...taskPath, "stages"],
          `tasks.${task.instance_id}.stages`,
          `lists [${listed.join(", ")}], the suite [${order.join(", ")}]: list them in the suite's order`,
        ),
      );
    }
  }
  for (const taskId of Object.keys(playbook.tasks)) {
    if (!suiteTasks.has(taskId)) problems.push({ ...at(["tasks", taskId], `tasks.${taskId}`, "no such task in the suite (unused)"), stopsRun: false });
  }
  return { problems, playbook };
}

/** Where the suite words a stage's request: its stage file, or its field of tasks.jsonl. */
function stageSource(place: Place, task: Task, index: number): string {
  if (place.file.endsWith(TASK_FILE)) return join(dirname(place.file), `stage-${index + 1}.md`);
  return `${place.file}${place.line === 0 ? "" : `:${place.line}`} stages.${index}.request (${task.stages[index]?.id ?? ""})`;
}
