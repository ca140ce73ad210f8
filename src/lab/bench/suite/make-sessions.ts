import { rename, writeFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { isTestPath } from "../patch/is-test-path.js";
import { patchFiles } from "../patch/patch-files.js";
import type { ScheduleEntry, SessionSpec, Task } from "./schema.js";
import { FINALIZE } from "./schema.js";

export interface MakeSessionsOptions {
  /** How many interruption tasks a switched session gets (default 4, as in the paper). */
  interruptions?: number | undefined;
  /** Seeds the choice of interruptions; the same seed gives the same sessions (default 1). */
  seed?: number | undefined;
}

/**
 * Builds the sessions of a suite the way the paper does: for every task as focus, an
 * uninterrupted session (its stages, then finalize) and, when other tasks of the same repository
 * share no source file with it, a switched session with up to `interruptions` of them inserted
 * in ordered chunks between the focus's stages.
 */
export function makeSessions(tasks: Task[], options: MakeSessionsOptions = {}): { sessions: SessionSpec[]; warnings: string[] } {
  const wanted = options.interruptions ?? 4;
  const seed = options.seed ?? 1;
  if (!Number.isInteger(wanted) || wanted < 0) throw new RangeError(`interruptions must be a non-negative integer, not ${wanted}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, not ${seed}`);
  const sessions: SessionSpec[] = [];
  const warnings: string[] = [];
  for (const focus of tasks) {
    const focusFiles = new Set(sourceFiles(focus));
    const candidates = tasks.filter(
      (task) => task.instance_id !== focus.instance_id && task.repo === focus.repo && !sourceFiles(task).some((path) => focusFiles.has(path)),
    );
    const chosen = pickInOrder({ items: candidates, count: wanted, random: mulberry32(mixSeed(seed, focus.instance_id)) });
    if (wanted > 0 && candidates.length === 0) {
      warnings.push(`${focus.instance_id}: no other task of ${focus.repo} is free of shared files; made only the uninterrupted session`);
    } else if (chosen.length < wanted) {
      warnings.push(`${focus.instance_id}: only ${chosen.length} of ${wanted} interruptions available in ${focus.repo}`);
    }
    const locality = isNear(focus, chosen) ? "near" : "far";
    sessions.push({
      session_id: `${focus.instance_id}__uninterrupted`,
      focus: focus.instance_id,
      condition: "uninterrupted",
      locality,
      interruptions: [],
      schedule: [...focus.stages.map((stage) => ({ task: focus.instance_id, stage: stage.id })), { task: focus.instance_id, stage: FINALIZE }],
    });
    if (chosen.length === 0) continue;
    sessions.push({
      session_id: `${focus.instance_id}__switched`,
      focus: focus.instance_id,
      condition: "switched",
      locality,
      interruptions: chosen.map((task) => task.instance_id),
      schedule: switchedSchedule(focus, chosen),
    });
  }
  return { sessions, warnings };
}

/** Writes `sessions.jsonl` in `dir` (one session per line, fixed key order), atomically; returns its path. */
export async function writeSessions(dir: string, sessions: SessionSpec[]): Promise<string> {
  const file = join(dir, "sessions.jsonl");
  const text = sessions.map((session) => `${JSON.stringify(orderKeys(session))}\n`).join("");
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, "utf8");
  await rename(temporary, file);
  return file;
}

/**
 * Focus stage 1, then the first gap, focus stage 2, the second gap, ..., the last focus stage,
 * then finalize. With k focus stages there are k - 1 gaps (one when k is 1): stage j of every
 * interruption goes into gap min(j, gaps), listed by stage index, then by interruption order.
 */
function switchedSchedule(focus: Task, interruptions: Task[]): ScheduleEntry[] {
  const gapCount = Math.max(focus.stages.length - 1, 1);
  const gaps: { stageIndex: number; order: number; entry: ScheduleEntry }[][] = Array.from({ length: gapCount }, () => []);
  interruptions.forEach((task, order) => {
    task.stages.forEach((stage, stageIndex) => {
      gaps[Math.min(stageIndex, gapCount - 1)]?.push({ stageIndex, order, entry: { task: task.instance_id, stage: stage.id } });
    });
  });
  const schedule: ScheduleEntry[] = [];
  focus.stages.forEach((stage, index) => {
    schedule.push({ task: focus.instance_id, stage: stage.id });
    const gap = gaps[index] ?? [];
    gap.sort((a, b) => a.stageIndex - b.stageIndex || a.order - b.order);
    schedule.push(...gap.map((item) => item.entry));
  });
  schedule.push({ task: focus.instance_id, stage: FINALIZE });
  return schedule;
}

/** Near when the immediate parent directories of the focus's source files meet those of any interruption. */
export function isNear(focus: Task, interruptions: Task[]): boolean {
  const focusDirs = new Set(sourceFiles(focus).map((path) => posix.dirname(path)));
  return interruptions.some((task) => sourceFiles(task).some((path) => focusDirs.has(posix.dirname(path))));
}

/** The non-test files a reference patch changes. */
function sourceFiles(task: Task): string[] {
  return patchFiles(task.patch).filter((path) => !isTestPath(path));
}

/** Up to `count` items, drawn without replacement by a partial Fisher-Yates shuffle. */
function pickInOrder<T>(options: { items: T[]; count: number; random: () => number }): T[] {
  const pool = [...options.items];
  const count = Math.min(options.count, pool.length);
  for (let index = 0; index < count; index += 1) {
    const swap = index + Math.floor(options.random() * (pool.length - index));
    const picked = pool[swap] as T;
    pool[swap] = pool[index] as T;
    pool[index] = picked;
  }
  return pool.slice(0, count);
}

/** The suite seed mixed with the focus id (FNV-1a), so each focus draws independently of the others. */
function mixSeed(seed: number, id: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (const char of id) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash;
}

/** mulberry32: a tiny 32-bit seeded PRNG returning numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function orderKeys(session: SessionSpec): SessionSpec {
  return {
    session_id: session.session_id,
    focus: session.focus,
    condition: session.condition,
    locality: session.locality,
    interruptions: [...session.interruptions],
    schedule: session.schedule.map((entry) => ({ task: entry.task, stage: entry.stage })),
  };
}
