import { describe, expect, it } from "vitest";
import { evaluateRouting } from "../../src/lab/route-eval/evaluate-routing.js";
import { parseLabelledSessions } from "../../src/lab/route-eval/labelled-sessions.js";
import { renderRouteEval, routeEvalJson } from "../../src/lab/route-eval/render-route-eval.js";
import { type ResumeOutcome, resumeCountsOf } from "../../src/lab/route-eval/resume-figures.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import { THRESHOLD } from "../support/defaults.js";

/** Two earlier sessions: `mon` left the progress bar unfinished and closed the exit code; `tue` left the error context. */
const EARLIER = [
  {
    session: "mon",
    title: "Progress bar and exit codes",
    hoursAgo: 26,
    requests: [
      { text: "Add a progress bar to the download command.", task: "bar", files: ["src/commands/download.rs"] },
      { text: "The tool exits 0 after a failed download.", task: "exit", files: ["src/main.rs"] },
      { text: "Hide the bar when stdout is not a terminal.", task: "bar", files: ["src/commands/download.rs", "src/progress.rs"] },
    ],
    closed: ["exit"],
  },
  {
    session: "tue",
    title: "Error messages",
    hoursAgo: 5,
    requests: [{ text: "Wrap reqwest errors with the URL as context.", task: "ctx", files: ["src/error.rs"] }],
  },
];

function day(requests: object[], earlier: object[] = EARLIER): string {
  return JSON.stringify({ id: "d1", register: "plain", earlier, requests });
}

describe("labelled days with earlier sessions", () => {
  it("names the file, the line and the field of bad input", () => {
    const good = JSON.stringify({ id: "d0", requests: [{ text: "fix it", task: "a" }] });
    const [mon, tue] = EARLIER as unknown as [Record<string, unknown>, Record<string, unknown>];
    const noTitle = { ...mon, title: undefined };
    expect(() => parseLabelledSessions("days.jsonl", `${good}\n${day([{ text: "x", task: "a" }], [noTitle])}`)).toThrow(/^days\.jsonl:2: earlier\.0\.title: /);
    expect(() => parseLabelledSessions("days.jsonl", day([{ text: "x", task: "a" }], [{ ...mon, closed: ["nope"] }]))).toThrow(
      'days.jsonl:1: earlier.0.closed.0: "nope" is no task of earlier session "mon"',
    );
    expect(() => parseLabelledSessions("days.jsonl", day([{ text: "x", task: "a" }], [mon, { ...tue, requests: [{ text: "y", task: "bar" }] }]))).toThrow(
      'days.jsonl:1: earlier.1.requests.0.task: label "bar" is also a task of earlier session "mon"',
    );
    expect(() => parseLabelledSessions("days.jsonl", day([{ text: "x", task: "a" }], [mon, { ...tue, session: "mon" }]))).toThrow(
      'days.jsonl:1: earlier.1.session: duplicate earlier session "mon"',
    );
    expect(() => parseLabelledSessions("days.jsonl", day([{ text: "x", task: "a" }], [{ ...mon, hoursAgo: -1 }]))).toThrow(
      "days.jsonl:1: earlier.0.hoursAgo: must be 0 or more",
    );
    expect(() => parseLabelledSessions("days.jsonl", day([{ text: "x", task: "a" }], [{ ...mon, extra: 1 }]))).toThrow(/^days\.jsonl:1: earlier\.0: /);
    expect(parseLabelledSessions("days.jsonl", day([{ text: "x", task: "a", style: "new-unrelated" }]))[0]?.earlier?.length).toBe(2);
  });
});

/** A router never sure of anything, so every request may resume an earlier task: the resumption rules alone decide. */
const unsureRouter: Router = {
  name: "lexical",
  async route() {
    return { target: { kind: "new", title: "t" }, confidence: 0.3, related: [], shared: false, reason: "scripted", basis: "content", router: "lexical" };
  },
};

describe("resumption figures", () => {
  it("scores resumed right, resumed wrong, missed and a task resumed only once", async () => {
    const sessions = parseLabelledSessions(
      "days.jsonl",
      day([
        // Names the unfinished task's own file after "back to": resumed, the right one.
        { text: "Back to src/progress.rs: the bar still shows when piped.", task: "bar", files: ["src/progress.rs"], style: "by-file" },
        // Its task is resumed already: nothing more to resume.
        { text: "Back to src/progress.rs once more.", task: "bar", files: ["src/progress.rs"], style: "continue" },
        // Gold: a new task that names the other unfinished task's file: a wrong resumption.
        { text: "Back to src/error.rs: a new lint there.", task: "lint", files: ["src/error.rs"], style: "new-near" },
        // The closed task's file: not a candidate, nothing resumed.
        { text: "Back to src/main.rs: exit codes again.", task: "exit-2", files: ["src/main.rs"], style: "closed-again" },
      ]),
    );
    const evaluation = await evaluateRouting({ sessions, router: unsureRouter, threshold: THRESHOLD });
    expect(evaluation.requests.map((request) => request.resume)).toMatchObject([
      { gold: "mon/bar", opens: true, resumed: "mon/bar" },
      { gold: "mon/bar", opens: false },
      { opens: false, resumed: "tue/ctx" },
      { opens: false },
    ]);
    expect(evaluation.requests[1]?.resume?.resumed).toBeUndefined();
    expect(evaluation.requests[3]?.resume?.resumed).toBeUndefined();
    // The resumed task stands for the earlier label: the request is routed right.
    expect(evaluation.requests[0]).toMatchObject({ predicted: "bar", correct: true });
    expect(evaluation.resume).toMatchObject({
      days: 1,
      candidates: 2,
      n: 4,
      resumptions: 1,
      resumedRight: 1,
      resumedWrong: 1,
      missed: 0,
      wrongRate: 0.25,
      rightWhenNamed: { resumptions: 1, resumedRight: 1, rate: 1 },
      worstRegister: { wrong: "plain", rightWhenNamed: "plain" },
    });
    expect(evaluation.resume?.byStyle.find((style) => style.style === "new-near")).toMatchObject({ n: 1, resumedWrong: 1 });
    expect(JSON.parse(routeEvalJson(evaluation)).resume.byRegister.plain).toMatchObject({ resumedRight: 1, resumedWrong: 1 });
    const text = renderRouteEval(evaluation);
    expect(text).toContain("resumed right          1 of 1 resumptions (100.0%)");
    expect(text).toContain("W d1#3 new-near gold=new resumed=tue/ctx");
  });

  it("leaves the output of sessions without earlier sessions as it was", async () => {
    const sessions = parseLabelledSessions("x", JSON.stringify({ id: "s", requests: [{ text: "Fix the parser.", task: "a" }] }));
    const evaluation = await evaluateRouting({ sessions, router: unsureRouter, threshold: THRESHOLD });
    expect(evaluation.resume).toBeUndefined();
    expect(evaluation.requests[0]?.resume).toBeUndefined();
    expect(JSON.parse(routeEvalJson(evaluation))).not.toHaveProperty("resume");
    expect(renderRouteEval(evaluation)).not.toContain("resum");
  });

  it("counts misses, offers of the right task, wrong offers and late resumptions", () => {
    const outcomes: ResumeOutcome[] = [
      { gold: "a/x", opens: true, offered: "a/x" },
      { gold: "a/y", opens: true },
      { gold: "a/y", opens: false, resumed: "a/y" },
      { opens: false, offered: "a/x" },
      { gold: "a/z", opens: true, resumed: "a/x" },
    ];
    expect(resumeCountsOf(outcomes)).toEqual({
      n: 5,
      resumptions: 3,
      resumedRight: 0,
      resumedLate: 1,
      resumedWrong: 1,
      missed: 2,
      missedOffered: 1,
      missedSure: 0,
      offeredWrong: 1,
      rightRate: 0,
      wrongRate: 0.2,
    });
  });
});
