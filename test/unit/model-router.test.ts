import { afterEach, describe, expect, it } from "vitest";
import { createAuxClient } from "../../src/plugin/auxiliary/endpoint-client.js";
import { createModelRouter } from "../../src/plugin/auxiliary/model-router.js";
import { extractSignals } from "../../src/plugin/core/routing/signals.js";
import { TaskIndex } from "../../src/plugin/core/routing/task-index.js";
import { COOLDOWN_MS, THRESHOLD } from "../support/defaults.js";
import { type FakeAuxEndpoint, type FakeReply, startFakeAuxEndpoint } from "../support/fake-aux-endpoint.js";

let endpoint: FakeAuxEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function routerAnswering(respond: (body: unknown) => FakeReply) {
  endpoint = await startFakeAuxEndpoint({ respond });
  return createModelRouter(createAuxClient({ baseURL: endpoint.url, model: "router-model", timeoutMs: 2000, cooldownMs: COOLDOWN_MS }), {
    lexical: { threshold: THRESHOLD },
  });
}

function twoTasks(): TaskIndex {
  const index = new TaskIndex();
  index.addTask("t1", "CSV export BOM");
  index.addEvidence("t1", { text: "/tmp/run/ws1: write a UTF-8 BOM in CSV exports", workspaces: ["/tmp/run/ws1"] });
  index.addTask("t2", "Session timeout");
  index.addEvidence("t2", { text: "/tmp/run/ws2: users are logged out after 5 minutes", workspaces: ["/tmp/run/ws2"] });
  index.current = "t2";
  return index;
}

const request = (text: string) => ({ text, signals: extractSignals(text) });
const answer = (value: unknown): FakeReply => ({ kind: "content", content: JSON.stringify(value) });

describe("the model router", () => {
  it("uses the model's decision and keeps its tokens and time with it", async () => {
    const router = await routerAnswering(() => answer({ task: "t1", title: "", confidence: 0.9, related: ["t2"], shared: false, reason: "about the export" }));
    const decision = await router.route(request("the exported file still has no BOM in Excel"), twoTasks());
    expect(decision).toMatchObject({ target: { kind: "task", task: "t1" }, confidence: 0.9, related: ["t2"], router: "model", reason: "about the export" });
    expect(decision.aux).toMatchObject({ calls: 1 });
    expect(decision.aux?.inputTokens).toBeGreaterThanOrEqual(0);
    const prompt = JSON.stringify(endpoint?.requests()[0]);
    expect(prompt).toContain("t2 (current)");
    expect(prompt).toContain("<request>\\nthe exported file still has no BOM in Excel\\n</request>");
  });

  it("decides a workspace path or an explicit reference without asking the model", async () => {
    const router = await routerAnswering(() => answer({ task: "t2", confidence: 0.99, reason: "wrong on purpose" }));
    const decision = await router.route(request("/tmp/run/ws1: also strip the BOM on import"), twoTasks());
    expect(decision).toMatchObject({ target: { kind: "task", task: "t1" }, router: "lexical", basis: "workspace" });
    expect(endpoint?.requests()).toHaveLength(0);
  });

  it("falls back to the lexical decision when the model names a task that does not exist, after one retry", async () => {
    const router = await routerAnswering(() => answer({ task: "t9", confidence: 0.9 }));
    const decision = await router.route(request("the exported file still has no BOM in Excel"), twoTasks());
    expect(decision.router).toBe("lexical");
    expect(decision.reason).toMatch(/^model router failed \(schema: .*\); lexical: /s);
    expect(decision.aux).toMatchObject({ calls: 2, error: expect.stringMatching(/^schema: /) });
  });

  it("opens a new task with the model's title", async () => {
    const router = await routerAnswering(() => answer({ task: "new", title: "Flaky order test", confidence: 0.85, shared: false, reason: "unrelated" }));
    const decision = await router.route(request("the order test fails randomly in CI"), twoTasks());
    expect(decision.target).toEqual({ kind: "new", title: "Flaky order test" });
  });
});

describe("the hybrid router", () => {
  async function hybridAnswering(respond: (body: unknown) => FakeReply) {
    endpoint = await startFakeAuxEndpoint({ respond });
    return createModelRouter(createAuxClient({ baseURL: endpoint.url, model: "router-model", timeoutMs: 2000, cooldownMs: COOLDOWN_MS }), {
      hybrid: true,
      lexical: { threshold: THRESHOLD },
    });
  }

  it("keeps a confident lexical decision without asking the model", async () => {
    const router = await hybridAnswering(() => answer({ task: "t2", confidence: 0.99, reason: "wrong on purpose" }));
    expect(router.name).toBe("hybrid");
    const decision = await router.route(request("/tmp/run/ws1: also strip the BOM on import"), twoTasks());
    expect(decision).toMatchObject({ target: { kind: "task", task: "t1" }, router: "lexical" });
    expect(decision.reason).toContain("decided without the model");
    expect(endpoint?.requests()).toHaveLength(0);
  });

  it("asks the model when the lexical decision is unsure, and holds its answer to the safety rules", async () => {
    const router = await hybridAnswering(() => answer({ task: "t2", confidence: 0.99, reason: "the session timeout again" }));
    // Nothing in it speaks for any task: the lexical router is unsure, and so must the model's answer be.
    const decision = await router.route(request("also add a dark mode toggle to the settings page"), twoTasks());
    expect(endpoint?.requests()).toHaveLength(1);
    expect(decision).toMatchObject({ target: { kind: "task", task: "t2" }, router: "model" });
    expect(decision.confidence).toBeLessThan(0.8);
    expect(decision.reason).toContain("held back");
  });
});
