import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AuxClient } from "../../src/plugin/auxiliary/aux-client.js";
import { AuxError } from "../../src/plugin/auxiliary/aux-error.js";
import { createAuxHealth } from "../../src/plugin/auxiliary/aux-health.js";
import { completeJson } from "../../src/plugin/auxiliary/complete-json.js";
import { createOpencodeAuxClient, type OpencodeModels, parseModelRef } from "../../src/plugin/auxiliary/opencode-client.js";
import { COOLDOWN_MS } from "../support/defaults.js";

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("the aux model's cool-down", () => {
  it("pauses every call after a timeout, until the cool-down has passed", () => {
    const time = clock();
    const health = createAuxHealth({ cooldownMs: 60_000, now: time.now });
    expect(health.check()).toBeUndefined();
    health.record({ ok: false, code: "timeout" });
    const paused = health.check();
    expect(paused).toBeInstanceOf(AuxError);
    expect(paused?.code).toBe("cooling-down");
    expect(paused?.message).toMatch(/failed 1 time\(s\) in a row \(last: timeout\); cooling down for 60 s more/);
    time.advance(59_999);
    expect(health.check()?.code).toBe("cooling-down");
    time.advance(1);
    expect(health.check()).toBeUndefined();
  });

  it("pauses after a second failure in a row, and a success in between resets the count", () => {
    const time = clock();
    const health = createAuxHealth({ cooldownMs: 1_000, now: time.now });
    health.record({ ok: false, code: "schema" });
    expect(health.check()).toBeUndefined();
    health.record({ ok: true });
    health.record({ ok: false, code: "http" });
    expect(health.check()).toBeUndefined();
    health.record({ ok: false, code: "connection" });
    expect(health.check()?.code).toBe("cooling-down");
    // The probe after the pause fails again: paused again at once.
    time.advance(1_000);
    expect(health.check()).toBeUndefined();
    health.record({ ok: false, code: "connection" });
    expect(health.check()?.code).toBe("cooling-down");
  });

  it("never pauses with a cool-down of 0", () => {
    const health = createAuxHealth({ cooldownMs: 0 });
    for (let attempt = 0; attempt < 5; attempt += 1) health.record({ ok: false, code: "timeout" });
    expect(health.check()).toBeUndefined();
  });

  it("makes completeJson answer at once, without a call, while paused", async () => {
    let sent = 0;
    const client: AuxClient = {
      label: "test",
      timeoutMs: 1000,
      format: "text",
      rememberFormat() {},
      health: createAuxHealth({ cooldownMs: 60_000 }),
      async send() {
        sent += 1;
        throw new AuxError({ code: "timeout", message: "no answer" });
      },
    };
    const ask = () => completeJson({ client, name: "x", schema: z.object({ task: z.string() }), system: "s", user: "u" });
    const first = await ask();
    expect(first).toMatchObject({ ok: false, usage: { calls: 1 } });
    const second = await ask();
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error.code).toBe("cooling-down");
    expect(second.usage.calls).toBe(0);
    expect(sent).toBe(1);
  });
});

describe("the OpenCode aux source", () => {
  function models(overrides: Partial<OpencodeModels> = {}): OpencodeModels & { asked: Parameters<OpencodeModels["ask"]>[0][] } {
    const asked: Parameters<OpencodeModels["ask"]>[0][] = [];
    return {
      asked,
      ask: async (options) => {
        asked.push(options);
        return { text: '{"task": "t1"}', inputTokens: 12, outputTokens: 3 };
      },
      smallModel: async () => undefined,
      sessionModel: async () => ({ providerID: "anthropic", modelID: "claude" }),
      ...overrides,
    };
  }
  const request = {
    messages: [
      { role: "system" as const, content: "route" },
      { role: "user" as const, content: "the request" },
    ],
    format: "text" as const,
    name: "x",
    jsonSchema: {},
    sessionID: "ses_1",
  };

  it("asks the configured model, else small_model, else the session's model, in a child of the session", async () => {
    const configured = models({ smallModel: async () => "openai/gpt-4o-mini" });
    await createOpencodeAuxClient({ models: configured, model: "local/qwen", timeoutMs: 1000, cooldownMs: COOLDOWN_MS }).send(request);
    expect(configured.asked[0]).toMatchObject({
      parentID: "ses_1",
      model: { providerID: "local", modelID: "qwen" },
      system: "route",
      text: "the request",
      timeoutMs: 1000,
    });
    const small = models({ smallModel: async () => "openai/gpt-4o-mini" });
    await createOpencodeAuxClient({ models: small, timeoutMs: 1000, cooldownMs: COOLDOWN_MS }).send(request);
    expect(small.asked[0]?.model).toEqual({ providerID: "openai", modelID: "gpt-4o-mini" });
    const session = models();
    const reply = await createOpencodeAuxClient({ models: session, timeoutMs: 1000, cooldownMs: COOLDOWN_MS }).send(request);
    expect(session.asked[0]?.model).toEqual({ providerID: "anthropic", modelID: "claude" });
    expect(reply).toEqual({ content: '{"task": "t1"}', inputTokens: 12, outputTokens: 3 });
  });

  it("says which setting is missing when there is no model to ask, and needs the session", async () => {
    const none = models({ sessionModel: async () => undefined });
    await expect(createOpencodeAuxClient({ models: none, timeoutMs: 1000, cooldownMs: COOLDOWN_MS }).send(request)).rejects.toThrow(/aux\.model .*small_model/);
    await expect(
      createOpencodeAuxClient({ models: models(), timeoutMs: 1000, cooldownMs: COOLDOWN_MS }).send({ ...request, sessionID: undefined }),
    ).rejects.toThrow(/session/);
  });

  it("carries a retry's earlier reply and correction in the one prompt", async () => {
    const source = models();
    await createOpencodeAuxClient({ models: source, timeoutMs: 1000, cooldownMs: COOLDOWN_MS }).send({
      ...request,
      messages: [...request.messages, { role: "assistant", content: "{oops" }, { role: "user", content: "Not JSON; again." }],
    });
    expect(source.asked[0]?.text).toBe("the request\n\nYour earlier reply:\n{oops\n\nNot JSON; again.");
  });

  it("reads provider/model with slashes in the model id", () => {
    expect(parseModelRef("openrouter/meta-llama/llama-3.1-8b")).toEqual({ providerID: "openrouter", modelID: "meta-llama/llama-3.1-8b" });
    expect(parseModelRef("gpt-4o")).toBeUndefined();
  });
});
