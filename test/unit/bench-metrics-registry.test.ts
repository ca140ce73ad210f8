import { describe, expect, it } from "vitest";
import type { FinishedSession } from "../../src/lab/bench/metrics/metric.js";
import { METRICS, measureSession } from "../../src/lab/bench/metrics/registry.js";
import { inSchemaOrder, type ResultLine, ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";

const task = { instance_id: "F", stages: [{ id: "s1", request: "do it" }] } as unknown as Task;

function finished(overrides: Partial<FinishedSession> = {}): FinishedSession {
  return {
    spec: { session_id: "S", focus: "F", condition: "switched", locality: "near", interruptions: [], schedule: [{ task: "F", stage: "s1" }] },
    run: { opencodeSessionID: "ses_1", requests: [], finalized: true, budgetExhausted: false, continuations: 0, wallMs: 5 },
    messages: [],
    state: {},
    calls: [],
    decisions: [],
    checkouts: new Map([["F", { task, workspace: "/r/ws1", name: "ws1" }]]),
    focus: { task, workspace: "/r/ws1", name: "ws1" },
    agentKind: "scripted",
    threshold: 0.8,
    ...overrides,
  };
}

describe("the bench's metric registry", () => {
  it("fills each field of the result line once, every one a field of its schema", () => {
    const fields = METRICS.map((metric) => metric.field);
    expect(new Set(fields).size).toBe(fields.length);
    for (const field of fields) expect(Object.keys(ResultLineSchema.shape)).toContain(field);
  });

  it("measures a finished session: required fields always, optional ones only when there is something to say", () => {
    const measured = measureSession(finished());
    const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, modelCalls: 0, toolCalls: 0 };
    const noAux = { calls: 0, inputTokens: 0, outputTokens: 0, ms: 0 };
    expect(measured).toEqual({ usage: zero, resumed_focus: zero, aux: noAux, resumed_focus_aux: noAux, timeline: [] });
    const written = measureSession(
      finished({ decisions: [{ index: 0, workspace: "/r/ws1/", task: "F", stage: "s1", files: [], wrote: "s1", lost: [], leaked: [] } as never] }),
    );
    expect(written.focus_write).toEqual({ wrote: "s1", lost: [], leaked: [] });
  });

  it("puts a line's fields in the schema's order, whatever order they came in", () => {
    const measured = measureSession(finished());
    const line = inSchemaOrder({
      ...measured,
      session_id: "S",
      mode: "router",
      focus: "F",
      condition: "switched",
      locality: "near",
      resolved: true,
      failure_class: "resolved",
      finalized: true,
      budget_exhausted: false,
      continuations: 0,
      wall_ms: 5,
      opencode_session_id: "ses_1",
      focus_workspace: "ws1",
      patch_bytes: 3,
    } as ResultLine);
    expect(Object.keys(line)).toEqual([
      "session_id",
      "mode",
      "focus",
      "condition",
      "locality",
      "resolved",
      "failure_class",
      "finalized",
      "budget_exhausted",
      "continuations",
      "usage",
      "resumed_focus",
      "aux",
      "resumed_focus_aux",
      "wall_ms",
      "opencode_session_id",
      "focus_workspace",
      "patch_bytes",
      "timeline",
    ]);
    expect(ResultLineSchema.safeParse(line).success).toBe(true);
  });
});
