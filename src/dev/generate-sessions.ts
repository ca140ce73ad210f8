import { type LabelledRequest, type LabelledSession, SHARED_LABEL } from "../lab/route-eval/labelled-sessions.js";
import { drawTask, type SyntheticTask } from "./generate/draw-task.js";
import { planSession } from "./generate/plan-session.js";
import { type SeededRandom, seededRandom } from "./generate/seeded-random.js";
import { writeRequest } from "./generate/write-request.js";

export { GENERATED_STYLES } from "./generate/styles.js";

/** Share of task requests that carry the files the agent's tools touched. */
const FILES_SHARE = 0.85;
const LETTERS = "ABCDEFGHIJ";

/**
 * Metamorphic `everyday` sessions for route-eval: 3-5 synthetic tasks per session, 14-24
 * requests switching back and forth between them, each request labelled with its task and
 * written in one of GENERATED_STYLES. The same options give the same sessions, byte for byte.
 */
export function generateSessions(options: { seed: number; sessions: number }): LabelledSession[] {
  const random = seededRandom(options.seed);
  const sessions: LabelledSession[] = [];
  for (let n = 1; n <= options.sessions; n++) sessions.push(generateSession(random, `gen-${options.seed}-${n}`));
  return sessions;
}

function generateSession(random: SeededRandom, id: string): LabelledSession {
  const length = random.int(14, 24);
  const taskCount = random.int(3, Math.min(5, Math.floor((length - 2) / 4)));
  // Everyday mixes: often a docs page, a parser or a helper among the tasks.
  const wants = random.shuffle([
    random.chance(0.4) ? "docs" : "code",
    random.chance(0.3) ? "parser" : "code",
    random.chance(0.3) ? "helper" : "code",
    ...Array<string>(taskCount).fill("code"),
  ]);
  const used = new Set<string>();
  const tasks = Array.from({ length: taskCount }, (_, index) => drawTask(random, used, wants[index]));
  const written = new Set<string>();
  const said = tasks.map(() => new Set<string>());
  const requests = planSession(random, taskCount, length).map(({ task: index, style }): LabelledRequest => {
    if (index === "*")
      return {
        text: fresh(written, () => writeRequest(style, { random, task: tasks[0] as SyntheticTask, letter: "", file: "", said: new Set() })),
        task: SHARED_LABEL,
        style,
      };
    const task = tasks[index] as SyntheticTask;
    const opening = ["issue-open", "chat-open", "explicit-new", "uncued-new"].includes(style);
    const file = opening || random.chance(0.5) ? (task.files[0] as string) : random.pick(task.files);
    const saidOfTask = said[index] as Set<string>;
    const text = fresh(written, () => writeRequest(style, { random, task, letter: LETTERS.charAt(index), file, said: saidOfTask }));
    for (const key of task.keys) if (new RegExp(`\\b${key}\\b`, "i").test(text)) saidOfTask.add(key);
    const files = random.chance(FILES_SHARE) ? touched(random, task, style === "exact-file" ? file : undefined) : undefined;
    return files ? { text, task: task.label, files, style } : { text, task: task.label, style };
  });
  return {
    id,
    description: `generated: ${tasks.map((task) => task.component).join(", ")}`,
    shape: "everyday",
    requests,
  };
}

/** A text not yet used in the session, when a few tries find one. */
function fresh(written: Set<string>, write: () => string): string {
  let text = write();
  for (let attempt = 0; attempt < 6 && written.has(text); attempt++) text = write();
  written.add(text);
  return text;
}

/** 1-2 of the task's files, in the task's order, including `named` when given. */
function touched(random: SeededRandom, task: SyntheticTask, named: string | undefined): string[] {
  const picked = new Set(random.sample(task.files, random.chance(0.5) ? 1 : 2));
  if (named !== undefined && !picked.has(named)) {
    picked.clear();
    picked.add(named);
    if (task.files.length > 1 && random.chance(0.4)) picked.add(random.pick(task.files.filter((file) => file !== named)));
  }
  return task.files.filter((file) => picked.has(file));
}
