import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseJsonl } from "../../jsonl/read-jsonl.js";
import type { Suite } from "../suite/schema.js";
import { TASK_FILE, TASKS_DIR, taskFolderNames } from "../suite/task-folder.js";
import type { Place } from "./suite-problem.js";

/** Where each task of a suite is written, by id: its folder's task.json, or its line of tasks.jsonl. */
export async function taskPlaces(suite: Suite): Promise<Map<string, Place>> {
  const folders = await taskFolderNames(suite.dir);
  if (folders !== undefined)
    return new Map(suite.tasks.map((task) => [task.instance_id, { file: join(suite.dir, TASKS_DIR, task.instance_id, TASK_FILE), line: 0 }]));
  return linesByKey(join(suite.dir, "tasks.jsonl"), "instance_id");
}

/** Where each session of a suite is written, by id: its line of sessions.jsonl. */
export function sessionPlaces(suite: Suite): Promise<Map<string, Place>> {
  return linesByKey(join(suite.dir, "sessions.jsonl"), "session_id");
}

/** A place for an id `places` lacks: the file, no line. */
export function placeOf(places: Map<string, Place>, id: string, fallback: string): Place {
  return places.get(id) ?? { file: fallback, line: 0 };
}

async function linesByKey(file: string, key: string): Promise<Map<string, Place>> {
  const text = await readFile(file, "utf8").catch(() => "");
  const places = new Map<string, Place>();
  for (const entry of parseJsonl(text)) {
    if (!entry.ok || typeof entry.value !== "object" || entry.value === null) continue;
    const id = (entry.value as Record<string, unknown>)[key];
    if (typeof id === "string" && !places.has(id)) places.set(id, { file, line: entry.line });
  }
  return places;
}
