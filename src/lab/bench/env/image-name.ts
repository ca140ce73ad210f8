import type { Task } from "../suite/schema.js";

/**
 * The image a task's sessions and scoring run in: `--image` (a template: `{instance_id}`,
 * `{repo}`), else the task's `image`, else the name SWE-bench's harness gives an instance's
 * image on Docker Hub (`swebench/sweb.eval.x86_64.<instance id, lower case>:latest`, with
 * `__` written `_1776_` as registry names allow no double underscore).
 */
export function imageFor(task: Task, template?: string): string {
  if (template !== undefined) return template.replaceAll("{instance_id}", task.instance_id).replaceAll("{repo}", task.repo);
  if (task.image !== undefined) return task.image;
  return `swebench/sweb.eval.x86_64.${task.instance_id.toLowerCase()}:latest`.replaceAll("__", "_1776_");
}
