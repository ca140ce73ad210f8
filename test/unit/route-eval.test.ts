import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lexicalRouter, type Router } from "../../src/core/routing/router.js";
import { evaluateRouting } from "../../src/route-eval/evaluate-routing.js";
import { LabelledSessionsError, parseLabelledSessions } from "../../src/route-eval/labelled-sessions.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const CLI = join(packageRoot(), "dist", "cli.js");
const SET = join(packageRoot(), "fixtures", "routing", "labelled-sessions.jsonl");

describe("labelled sessions input", () => {
  it("names the line and the field of bad input", () => {
    const good = JSON.stringify({ id: "s1", requests: [{ text: "fix it", task: "a" }] });
    expect(() => parseLabelledSessions("set.jsonl", `${good}\n{"id": "s2", "requests": [{"text": "", "task": "a"}]}`)).toThrow(
      "set.jsonl:2: requests.0.text: must be non-empty text",
    );
    expect(() => parseLabelledSessions("set.jsonl", `${good}\n\n{oops`)).toThrow(/^set\.jsonl:3: \(line\): not JSON/);
    expect(() => parseLabelledSessions("set.jsonl", `${good}\n${good}`)).toThrow('set.jsonl:2: id: duplicate session id "s1"');
    expect(() => parseLabelledSessions("set.jsonl", `{"id": "s", "requests": [{"text": "x", "task": "a", "file": []}]}`)).toThrow(LabelledSessionsError);
  });

  it("holds the committed set: at least 30 sessions and 300 requests", () => {
    return import("node:fs/promises").then(async ({ readFile }) => {
      const sessions = parseLabelledSessions(SET, await readFile(SET, "utf8"));
      expect(sessions.length).toBeGreaterThanOrEqual(30);
      expect(sessions.reduce((sum, session) => sum + session.requests.length, 0)).toBeGreaterThanOrEqual(300);
    });
  });
});

/** A router that follows a script of answers, to check the metrics arithmetic. */
function scriptedRouter(answers: Array<"new" | string>, confidence: number[]): Router {
  let call = 0;
  return {
    name: "lexical",
    async route() {
      const answer = answers[call] as string;
      const decided = confidence[call] as number;
      call += 1;
      return {
        target: answer === "new" ? { kind: "new", title: "t" } : { kind: "task", task: answer },
        confidence: decided,
        related: [],
        shared: answer === "shared",
        reason: "scripted",
        basis: "content",
        router: "lexical",
      };
    },
  };
}

describe("evaluateRouting", () => {
  it("scores online decisions against gold labels through the task each decision opened", async () => {
    const sessions = parseLabelledSessions(
      "x",
      JSON.stringify({
        id: "s",
        requests: [
          { text: "a1", task: "a" },
          { text: "b1", task: "b" },
          { text: "a2", task: "a" },
          { text: "b2", task: "b" },
          { text: "all", task: "*" },
        ],
      }),
    );
    // a1 opens t1 (right); b1 goes to t1 (wrong: b is new); a2 to t1 (right, unsure);
    // b2 opens a task (right: no task stands for b yet); the shared instruction is not marked shared (wrong).
    const router = scriptedRouter(["new", "t1", "t1", "new", "t1"], [1, 0.9, 0.5, 0.85, 0.9]);
    const evaluation = await evaluateRouting({ sessions, router, threshold: 0.8 });
    expect(evaluation.requests.map((request) => request.correct)).toEqual([true, false, true, true, false]);
    expect(evaluation.metrics).toEqual({
      n: 5,
      accuracy: 0.6,
      fallbackRate: 0.2,
      confidentWrongRate: 0.4,
      newTaskPrecision: 1,
      // Of the two requests that first name a gold task (a1, b1), one opened a task.
      newTaskRecall: 0.5,
    });
  });

  it("runs the lexical router over the committed set", async () => {
    const { readFile } = await import("node:fs/promises");
    const sessions = parseLabelledSessions(SET, await readFile(SET, "utf8"));
    const evaluation = await evaluateRouting({ sessions, router: lexicalRouter, threshold: 0.8 });
    expect(evaluation.metrics.n).toBe(sessions.reduce((sum, session) => sum + session.requests.length, 0));
    expect(evaluation.metrics.accuracy).toBeGreaterThan(0.9);
  });
});

describe("opencode-rcm route-eval", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir("rcm-route-eval");
  });
  afterAll(async () => {
    await temp.remove();
  });

  it("prints exactly the documented keys with --json", async () => {
    const { stdout } = await run(process.execPath, [CLI, "route-eval", SET, "--json"]);
    const report = JSON.parse(stdout) as Record<string, number>;
    expect(Object.keys(report)).toEqual(["n", "accuracy", "fallbackRate", "confidentWrongRate", "newTaskPrecision", "newTaskRecall"]);
    expect(report["n"]).toBeGreaterThanOrEqual(300);
  });

  it("exits 2 naming the line and field of bad input", async () => {
    const file = join(temp.path, "bad.jsonl");
    await writeFile(file, `${JSON.stringify({ id: "s", requests: [{ text: "x", task: "a" }] })}\n{"id": "t", "requests": [{"text": "y"}]}\n`);
    const failure = await run(process.execPath, [CLI, "route-eval", file]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain(`${file}:2: requests.0.task:`);
  });

  it("rejects the model router without an endpoint, naming what is missing", async () => {
    const failure = await run(process.execPath, [CLI, "route-eval", SET, "--router", "model"], { env: { PATH: process.env["PATH"] ?? "" } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain("aux.baseURL");
  });
});
