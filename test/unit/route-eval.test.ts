import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RcmError } from "../../src/kit/errors/rcm-error.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { evaluateRouting } from "../../src/lab/route-eval/evaluate-routing.js";
import { parseLabelledSessions } from "../../src/lab/route-eval/labelled-sessions.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import { lexicalRouter, THRESHOLD } from "../support/defaults.js";

const SET = join(packageRoot(), "fixtures", "routing", "labelled-sessions.jsonl");

describe("labelled sessions input", () => {
  it("names the line and the field of bad input", () => {
    const good = JSON.stringify({ id: "s1", requests: [{ text: "fix it", task: "a" }] });
    expect(() => parseLabelledSessions("set.jsonl", `${good}\n{"id": "s2", "requests": [{"text": "", "task": "a"}]}`)).toThrow(
      "set.jsonl:2: requests.0.text: must be non-empty text",
    );
    expect(() => parseLabelledSessions("set.jsonl", `${good}\n\n{oops`)).toThrow(/^set\.jsonl:3: \(line\): not JSON/);
    expect(() => parseLabelledSessions("set.jsonl", `${good}\n${good}`)).toThrow('set.jsonl:2: id: duplicate session id "s1"');
    const error = (() => {
      try {
        parseLabelledSessions("set.jsonl", `{"id": "s", "requests": [{"text": "x", "task": "a", "file": []}]}`);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RcmError);
    expect(error).toMatchObject({ code: "labelled-sessions", location: { file: "set.jsonl", line: 1, field: "requests.0" } });
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
function scriptedRouter(answers: Array<"new" | string>, confidence: number[], pointsTo: Array<string[] | undefined> = []): Router {
  let call = 0;
  return {
    name: "lexical",
    async route() {
      const answer = answers[call] as string;
      const decided = confidence[call] as number;
      const pointed = pointsTo[call];
      call += 1;
      return {
        target: answer === "new" ? { kind: "new", title: "t" } : { kind: "task", task: answer },
        confidence: decided,
        related: [],
        shared: answer === "shared",
        reason: "scripted",
        basis: "content",
        router: "lexical",
        ...(pointed ? { pointsTo: pointed } : {}),
      };
    },
  };
}

/** One labelled session of `[text, gold task]` requests. */
function oneSession(...requests: Array<[text: string, task: string]>) {
  return parseLabelledSessions("x", JSON.stringify({ id: "s", requests: requests.map(([text, task]) => ({ text, task })) }));
}

describe("evaluateRouting", () => {
  it("scores online decisions against gold labels through the task each decision opened", async () => {
    const sessions = oneSession(["a1", "a"], ["b1", "b"], ["a2", "a"], ["b2", "b"], ["all", "*"]);
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
      // b1 folded into a's task hides nothing of b (b had no history): a merge. The missed shared
      // instruction is neither harmful nor a merge.
      harmfulConfidentWrongRate: 0,
      mergeConfidentWrongRate: 0.2,
      // Bin 0.9-1.0: confidences 1, 0.9, 0.9, one right: |1/3 - 0.933| x 3/5 = 0.36; bin 0.8-0.9:
      // 0.85, right: 0.15 x 1/5 = 0.03; bin 0.5-0.6: 0.5, right: 0.5 x 1/5 = 0.1.
      expectedCalibrationError: 0.49,
      // After the first request, b2 alone was narrowed to its own task (b1 and "all" were narrowed wrongly).
      narrowedRight: 0.25,
      // The three narrowed calls: b1's carried a1; b2's left out b1 (settled in a's task); the rule's carried a1.
      narrowedCalls: { n: 3, carriedOther: 0.6667, missedOwn: 0.3333 },
    });
    expect(evaluation.requests.map((request) => request.mistake)).toEqual([undefined, "merge", undefined, undefined, "shared"]);
    expect(evaluation.requests.map((request) => request.kind)).toEqual(["opening", "opening", "return", "return", "shared"]);
  });

  it("lets an unsure request ride along with the tasks it points to, and counts it carried where it is another task's", async () => {
    const sessions = oneSession(["a1", "a"], ["b1", "b"], ["b2", "b"], ["a2", "a"]);
    // b2 is routed to t1 unsure (its guess) but points to t2 as well; a2's narrowed call to t1 carries it.
    const router = scriptedRouter(["new", "new", "t1", "t1"], [1, 0.95, 0.5, 0.9], [undefined, undefined, ["t2"], undefined]);
    const evaluation = await evaluateRouting({ sessions, router, threshold: 0.8 });
    const last = evaluation.requests.at(-1);
    expect(last?.narrowed).toEqual({ carriedOther: true, missedOwn: false, carried: [3], missed: [], riding: [3] });
  });

  it("runs the lexical router over the committed set", async () => {
    const { readFile } = await import("node:fs/promises");
    const sessions = parseLabelledSessions(SET, await readFile(SET, "utf8"));
    const evaluation = await evaluateRouting({ sessions, router: lexicalRouter, threshold: THRESHOLD });
    expect(evaluation.metrics.n).toBe(sessions.reduce((sum, session) => sum + session.requests.length, 0));
    expect(evaluation.metrics.accuracy).toBeGreaterThan(0.85);
    // What hides history wrongly stays rare on this set, written to a different brief.
    expect(evaluation.metrics.harmfulConfidentWrongRate).toBeLessThanOrEqual(0.01);
    expect(evaluation.metrics.mergeConfidentWrongRate).toBeLessThanOrEqual(0.02);
  });
});

describe("what a mistake costs", () => {
  it("calls hiding a known task's history harmful, and a new task folded into an old one a merge", async () => {
    const sessions = oneSession(["a1", "a"], ["b1", "b"], ["a2", "a"], ["c1", "c"], ["b2", "b"]);
    // a2 goes to b's task (hides a's history), c1 is folded into t1 (merge), b2 opens a new task (hides b's history).
    const router = scriptedRouter(["new", "new", "t2", "t1", "new"], [1, 0.95, 0.9, 0.9, 0.9]);
    const evaluation = await evaluateRouting({ sessions, router, threshold: 0.8 });
    expect(evaluation.requests.map((request) => request.mistake ?? null)).toEqual([null, null, "harmful", "merge", "harmful"]);
    expect(evaluation.metrics).toMatchObject({ harmfulConfidentWrongRate: 0.4, mergeConfidentWrongRate: 0.2, confidentWrongRate: 0.6 });
  });

  it("does not count an unsure mistake as confident-wrong of any kind", async () => {
    const sessions = oneSession(["a1", "a"], ["b1", "b"], ["a2", "a"]);
    const evaluation = await evaluateRouting({ sessions, router: scriptedRouter(["new", "new", "t2"], [1, 0.9, 0.79]), threshold: 0.8 });
    expect(evaluation.requests[2]).toMatchObject({ correct: false });
    expect(evaluation.requests[2]?.mistake).toBeUndefined();
    expect(evaluation.metrics.harmfulConfidentWrongRate).toBe(0);
  });

  it("reports accuracy and fallback per session shape", async () => {
    const switched = {
      id: "sw",
      shape: "switch",
      requests: [
        { text: "/w/ws1: fix a", task: "a", workspace: "/w/ws1" },
        { text: "/w/ws2: fix b", task: "b", workspace: "/w/ws2" },
      ],
    };
    const everyday = {
      id: "ev",
      shape: "everyday",
      requests: [
        { text: "fix c", task: "c" },
        { text: "fix d", task: "d" },
      ],
    };
    const sessions = parseLabelledSessions("x", `${JSON.stringify(switched)}\n${JSON.stringify(everyday)}`);
    const evaluation = await evaluateRouting({ sessions, router: scriptedRouter(["new", "new", "new", "t1"], [1, 0.95, 1, 0.5]), threshold: 0.8 });
    expect(evaluation.byShape).toEqual([
      expect.objectContaining({ shape: "switch", sessions: 1, n: 2, accuracy: 1, fallbackRate: 0 }),
      expect.objectContaining({ shape: "everyday", sessions: 1, n: 2, accuracy: 0.5, fallbackRate: 0.5 }),
    ]);
  });
});
