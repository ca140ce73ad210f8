import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { toChatMessages } from "../../src/lab/bench/drive/call-recorder-plugin.js";
import type { SentRequest } from "../../src/lab/bench/drive/run-session.js";
import { cacheAwareCost, sessionCacheTokens, simulatedCacheTokens } from "../../src/lab/bench/metrics/cache-cost.js";
import type { FinishedSession } from "../../src/lab/bench/metrics/metric.js";
import { callRequests, fidelityPoints } from "../../src/lab/bench/metrics/received-context.js";
import { openRequestLog } from "../../src/lab/bench/metrics/request-log.js";
import { sessionTimeline, timelineMetric } from "../../src/lab/bench/metrics/timeline.js";
import { emptyUsage } from "../../src/lab/bench/metrics/usage.js";
import { type ChatBody, type ChatMessage, chatMessageText, lastUserText } from "../../src/lab/bench/run-dir/chat-body.js";
import { loadSuite } from "../../src/lab/bench/suite/load-suite.js";
import type { Stage } from "../../src/lab/bench/suite/schema.js";
import { userRequestText } from "../../src/plugin/core/interaction-groups.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Ledger } from "../../src/plugin/core/routing/ledger.js";
import { mainSession } from "../support/fixtures.js";

interface RecordedRun {
  requests: SentRequest[];
  workspaceTask: Record<string, string>;
  calls: ChatMessage[][];
  messages?: MessageWithParts[];
  ledger?: Ledger;
}
/** A switched bench-small session in native and router, as the scripted model received it from OpenCode 1.18.33. */
const recorded = JSON.parse(readFileSync(join(packageRoot(), "fixtures", "model-calls", "bench-small-switched.json"), "utf8")) as {
  system: string;
  tools: unknown[];
  runs: Record<"native" | "router", RecordedRun>;
};
const FOCUS = "minitext__minitext-1";

function bodies(run: RecordedRun): ChatBody[] {
  return run.calls.map((messages) => ({ tools: recorded.tools, messages: [{ role: "system", content: recorded.system }, ...messages] }));
}

let focusStages: Stage[];
beforeAll(async () => {
  const suite = await loadSuite(join(packageRoot(), "fixtures", "bench-small"));
  focusStages = suite.tasks.find((task) => task.instance_id === FOCUS)?.stages ?? [];
});

function points(run: RecordedRun, calls = bodies(run), options: { ids?: (string | undefined)[]; constraints?: { text: string; sources: string[] }[] } = {}) {
  return fidelityPoints({
    calls,
    requests: run.requests,
    requestMessageIDs: options.ids ?? run.requests.map(() => undefined),
    focus: FOCUS,
    focusStages,
    workspaceTask: new Map(Object.entries(run.workspaceTask)),
    constraints: options.constraints ?? [],
  });
}

describe("what the model received, from recorded calls", () => {
  it("assigns each call to the request it served", () => {
    // Each of the 7 requests took two calls: a tool step, then the answer.
    expect(callRequests(bodies(recorded.runs.native), recorded.runs.native.requests)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    expect(callRequests(bodies(recorded.runs.router), recorded.runs.router.requests)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
  });

  it("measures fidelity at the focus's resumption and at finalization: native carries the other tasks, router does not", () => {
    const native = points(recorded.runs.native);
    expect(native.map(({ at, entry, requirements, verbatim, cited }) => ({ at, entry, requirements, verbatim, cited }))).toEqual([
      { at: "resume", entry: 3, requirements: 1, verbatim: 1, cited: 0 },
      { at: "finalize", entry: 6, requirements: 2, verbatim: 2, cited: 0 },
    ]);
    for (const point of native) expect(point.other_task_tokens / point.context_tokens).toBeGreaterThan(0.5);
    const router = points(recorded.runs.router);
    expect(router.map((point) => [point.at, point.verbatim, point.other_task_tokens])).toEqual([
      ["resume", 1, 0],
      ["finalize", 2, 0],
    ]);
    expect(router[0]?.context_tokens).toBeLessThan(native[0]?.context_tokens ?? 0);
  });

  it("counts a requirement the model saw only as a record constraint citing its request, and misses one it did not see at all", () => {
    const run = recorded.runs.router;
    const stage1 = focusStages[0]?.request ?? "";
    const constraint = { text: "Collapse runs of dashes and strip dashes at both ends", sources: ["msg_stage1"] };
    const record = `<rcm-task-memory task="t1">\nTask t1: slugify\nConstraints (from the user's requests):\n- ${constraint.text}\n</rcm-task-memory>`;
    // As after a compaction: the stage-1 request is gone, a record stands in for it.
    const compacted = bodies(run).map((body) => ({
      ...body,
      messages: body.messages.map((message) =>
        message.role === "user" && typeof message.content === "string" && message.content.includes(stage1.slice(0, 60))
          ? { role: "user", content: record }
          : message,
      ),
    }));
    const ids = run.requests.map((_request, index) => (index === 0 ? "msg_stage1" : `msg_${index}`));
    const resumed = points(run, compacted, { ids, constraints: [constraint] })[0];
    expect(resumed).toMatchObject({ at: "resume", requirements: 1, verbatim: 0, cited: 1 });
    const uncited = points(run, compacted, { ids, constraints: [{ ...constraint, sources: ["msg_other"] }] })[0];
    expect(uncited).toMatchObject({ requirements: 1, verbatim: 0, cited: 0 });
  });

  it("simulates prefix caching over the calls, and prefers the provider's own counts", () => {
    const native = simulatedCacheTokens(bodies(recorded.runs.native));
    const router = simulatedCacheTokens(bodies(recorded.runs.router));
    expect(native.source).toBe("simulated");
    expect(router.input_tokens).toBeLessThan(native.input_tokens);
    for (const cache of [native, router]) {
      expect(cache.cached_tokens).toBeGreaterThan(0);
      expect(cache.cached_tokens).toBeLessThan(cache.input_tokens);
    }
    expect(simulatedCacheTokens(bodies(recorded.runs.native))).toEqual(native);
    expect(cacheAwareCost({ source: "simulated", input_tokens: 1000, cached_tokens: 800 }, 0.1)).toBeCloseTo(280);
    const reported = { ...emptyUsage(), inputTokens: 1000, cachedInputTokens: 700, cacheWriteTokens: 100 };
    expect(sessionCacheTokens(reported, bodies(recorded.runs.native))).toEqual({ source: "provider", input_tokens: 1000, cached_tokens: 700 });
    expect(sessionCacheTokens(emptyUsage(), [])).toBeUndefined();
  });

  it("lays out the requests with the router's decisions and each call's input tokens from the stored history", () => {
    const run = recorded.runs.router;
    const { timeline, requestMessageIDs } = sessionTimeline({ messages: run.messages ?? [], requests: run.requests, ledger: run.ledger, threshold: 0.8 });
    expect(timeline.map((entry) => entry.task)).toEqual(run.requests.map((request) => request.task));
    expect(timeline.map((entry) => entry.routed_to)).toEqual(["t1", "t2", "t3", "t1", "t2", "t3", "t1"]);
    for (const entry of timeline) {
      expect(entry.fallback).toBe((entry.confidence ?? 0) < 0.8);
      expect(entry.call_input_tokens).toHaveLength(2);
    }
    expect(requestMessageIDs.every((id) => id !== undefined && run.ledger?.decisions[id] !== undefined)).toBe(true);
    const strict = sessionTimeline({ messages: run.messages ?? [], requests: run.requests, ledger: run.ledger, threshold: 0.999 });
    expect(strict.timeline.some((entry) => entry.fallback)).toBe(true);
    // The bench's timeline metric marks fallbacks by the threshold the plug-in ran with (run.json's), not the default.
    const finished = {
      messages: run.messages ?? [],
      run: { requests: run.requests },
      state: { ledger: run.ledger },
      threshold: 0.999,
    } as unknown as FinishedSession;
    expect(timelineMetric.measure(finished)).toEqual(strict.timeline);
  });
});

describe("the model's request log", () => {
  it("hands out each session's calls once, reads only whole lines, and ignores what was logged before it was opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rcm-request-log-"));
    try {
      const file = join(dir, "full.jsonl");
      const call = (session: string, text: string) =>
        `${JSON.stringify({ index: 0, path: "/v1/chat/completions", body: { messages: [{ role: "user", content: `/run/sessions/${session}/full/ws1: ${text}` }] } })}\n`;
      writeFileSync(file, call("a", "from an interrupted run"));
      const log = await openRequestLog(file);
      const half = call("b", "second");
      appendFileSync(file, call("a", "first") + half.slice(0, 20));
      expect((await log.take("a")).map(lastUserText)).toEqual(["/run/sessions/a/full/ws1: first"]);
      expect(await log.take("b")).toEqual([]);
      appendFileSync(file, half.slice(20));
      expect((await log.take("b")).map(lastUserText)).toEqual(["/run/sessions/b/full/ws1: second"]);
      expect(await log.take("a")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the call recorder's view of OpenCode's messages", () => {
  it("turns a recorded history into user, assistant and tool messages, errors included, and keeps every request's text", () => {
    const history = mainSession("two-tasks-with-tool-error");
    const chat = toChatMessages(history);
    const users = history.filter((message) => message.info.role === "user");
    expect(chat.filter((message) => message.role === "user").map(chatMessageText)).toEqual(users.map((message) => userRequestText(message.parts)));
    const tools = history.flatMap((message) => message.parts.filter((part) => part.type === "tool"));
    expect(chat.filter((message) => message.role === "tool")).toHaveLength(tools.length);
    const errors = tools.flatMap((part) => (part.type === "tool" && part.state.status === "error" ? [part.state.error] : []));
    expect(errors).toHaveLength(1);
    expect(chat.some((message) => message.role === "tool" && message.content === errors[0])).toBe(true);
    expect(chat.find((message) => message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0)?.tool_calls?.[0]?.function?.name).toBeTruthy();
  });
});
