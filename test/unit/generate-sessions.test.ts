import { describe, expect, it } from "vitest";
import { GENERATED_STYLES, generateSessions } from "../../src/dev/generate-sessions.js";
import { type LabelledSession, LabelledSessionSchema, SHARED_LABEL } from "../../src/lab/route-eval/labelled-sessions.js";

const OPENINGS = new Set<string>(["issue-open", "chat-open", "explicit-new", "uncued-new"]);
const PATH = /[\w-]+\/[\w./-]+\.\w+|README\.md/;
const sessions = generateSessions({ seed: 7, sessions: 50 });

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9]+/));

/** Each task's component words (from its label) and the files its requests touched. */
function tasksOf(session: LabelledSession): Map<string, { words: string[]; files: Set<string> }> {
  const tasks = new Map<string, { words: string[]; files: Set<string> }>();
  for (const request of session.requests) {
    if (request.task === SHARED_LABEL) continue;
    const task = tasks.get(request.task) ?? { words: request.task.split("-"), files: new Set<string>() };
    for (const file of request.files ?? []) task.files.add(file);
    tasks.set(request.task, task);
  }
  return tasks;
}

describe("generated routing sessions", () => {
  it("are identical for the same seed and differ for another seed", () => {
    const once = JSON.stringify(generateSessions({ seed: 3, sessions: 20 }));
    expect(JSON.stringify(generateSessions({ seed: 3, sessions: 20 }))).toBe(once);
    expect(JSON.stringify(generateSessions({ seed: 4, sessions: 20 }))).not.toBe(once);
  });

  it("parse as labelled everyday sessions with unique ids, 3-5 tasks and 14-24 requests", () => {
    expect(new Set(sessions.map((session) => session.id)).size).toBe(50);
    for (const session of sessions) {
      expect(LabelledSessionSchema.safeParse(session).success).toBe(true);
      expect(session.shape).toBe("everyday");
      expect(session.id).toMatch(/^gen-7-\d+$/);
      expect(session.requests.length).toBeGreaterThanOrEqual(14);
      expect(session.requests.length).toBeLessThanOrEqual(24);
      expect(tasksOf(session).size).toBeGreaterThanOrEqual(3);
      expect(tasksOf(session).size).toBeLessThanOrEqual(5);
    }
  });

  it("give every request a style from GENERATED_STYLES", () => {
    const styles = new Set<string>(GENERATED_STYLES);
    for (const request of sessions.flatMap((session) => session.requests)) expect(styles.has(request.style ?? "")).toBe(true);
  });

  it("never let two tasks of a session share a file basename or a component word", () => {
    for (const session of sessions) {
      const tasks = [...tasksOf(session).values()];
      const componentWords = tasks.flatMap((task) => task.words);
      expect(new Set(componentWords).size, session.id).toBe(componentWords.length);
      const basenames = tasks.flatMap((task) => [...new Set([...task.files].map(basename))]);
      expect(new Set(basenames).size, session.id).toBe(basenames.length);
    }
  });

  it("never name another task's component word in a request, and keep files off shared rules", () => {
    for (const session of sessions) {
      const tasks = tasksOf(session);
      for (const request of session.requests) {
        const said = words(request.text);
        for (const [label, task] of tasks) {
          if (label === request.task) continue;
          expect(
            task.words.filter((word) => said.has(word)),
            `${session.id}: ${request.text}`,
          ).toEqual([]);
        }
        if (request.task === SHARED_LABEL) expect(request.files).toBeUndefined();
      }
    }
  });

  it("open each task with an opening style and let terse nudges and bare continuations follow their own task", () => {
    for (const session of sessions) {
      const opened = new Set<string>();
      let previous: string | undefined;
      let switches = 0;
      for (const request of session.requests) {
        if (request.task === SHARED_LABEL) continue;
        const style = request.style ?? "";
        if (!opened.has(request.task)) expect(OPENINGS.has(style), `${session.id}: ${request.text}`).toBe(true);
        else {
          expect(OPENINGS.has(style)).toBe(false);
          if (request.task !== previous) switches++;
        }
        if (style === "terse-nudge" || style === "bare-continuation") expect(request.task, `${session.id}: ${request.text}`).toBe(previous);
        if (style === "switch-back") expect(request.task).not.toBe(previous);
        opened.add(request.task);
        previous = request.task;
      }
      expect(switches, session.id).toBeGreaterThanOrEqual(4);
    }
  });

  it("name the task's component or one of its files where the style says so, and no file in an uncued opening", () => {
    for (const session of sessions) {
      const tasks = tasksOf(session);
      for (const request of session.requests) {
        const task = tasks.get(request.task);
        if (!task) continue;
        if (request.style === "switch-back") expect(request.text).toContain(task.words.join(" "));
        if (request.style === "exact-file") expect(request.text).toMatch(PATH);
        if (request.style === "uncued-new") expect(request.text).not.toMatch(PATH);
      }
    }
  });

  it("use every style at least 20 times across 50 sessions", () => {
    const counts = new Map<string, number>();
    for (const request of sessions.flatMap((session) => session.requests)) counts.set(request.style ?? "", (counts.get(request.style ?? "") ?? 0) + 1);
    for (const style of GENERATED_STYLES) expect(counts.get(style) ?? 0, style).toBeGreaterThanOrEqual(20);
  });
});
