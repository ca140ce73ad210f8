import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AuxClient } from "../../src/plugin/auxiliary/aux-client.js";
import { completeJson } from "../../src/plugin/auxiliary/complete-json.js";
import { createAuxClient } from "../../src/plugin/auxiliary/endpoint-client.js";
import { COOLDOWN_MS, TIMEOUT_MS } from "../support/defaults.js";
import { type FakeAuxEndpoint, type FakeReply, startFakeAuxEndpoint } from "../support/fake-aux-endpoint.js";

const DecisionSchema = z.object({
  task: z.string(),
  confidence: z.number().min(0).max(1),
  related: z.array(z.string()),
});

const VALID = { task: "fix-login", confidence: 0.9, related: ["docs"] };
const VALID_TEXT = JSON.stringify(VALID);

/** The parts of a chat request body these tests look at. */
interface RequestBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: { properties?: Record<string, unknown> }; strict: boolean } };
  max_tokens?: number;
}

let endpoints: FakeAuxEndpoint[] = [];

afterEach(async () => {
  await Promise.all(endpoints.map((endpoint) => endpoint.close()));
  endpoints = [];
});

async function start(respond: (body: unknown, index: number) => FakeReply): Promise<FakeAuxEndpoint> {
  const endpoint = await startFakeAuxEndpoint({ respond });
  endpoints.push(endpoint);
  return endpoint;
}

/** An endpoint that gives the scripted replies in order (the last one repeats). */
function scripted(...replies: FakeReply[]): Promise<FakeAuxEndpoint> {
  return start((_body, index) => replies[Math.min(index, replies.length - 1)] ?? { kind: "hang" });
}

const content = (text: string, extra: Omit<Extract<FakeReply, { kind: "content" }>, "kind" | "content"> = {}): FakeReply => ({
  kind: "content",
  content: text,
  ...extra,
});

function clientFor(endpoint: FakeAuxEndpoint, timeoutMs = 2_000): AuxClient {
  return createAuxClient({ baseURL: endpoint.url, model: "aux-test", timeoutMs, cooldownMs: COOLDOWN_MS });
}

function ask(client: AuxClient) {
  return completeJson({
    client,
    name: "route_decision",
    schema: DecisionSchema,
    system: "You route requests to tasks.",
    user: "Fix the login bug.",
  });
}

function request(endpoint: FakeAuxEndpoint, index: number): RequestBody {
  return endpoint.requests()[index] as RequestBody;
}

describe("completeJson", () => {
  it("returns the validated object when the first reply is valid JSON", async () => {
    const endpoint = await scripted(content(VALID_TEXT));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 1, format: "json_schema" } });
    const body = request(endpoint, 0);
    expect(body.model).toBe("aux-test");
    expect(body.response_format?.type).toBe("json_schema");
    expect(body.response_format?.json_schema?.name).toBe("route_decision");
    expect(body.response_format?.json_schema?.strict).toBe(false);
    expect(Object.keys(body.response_format?.json_schema?.schema.properties ?? {})).toEqual(["task", "confidence", "related"]);
    expect(body.messages.map((message) => message.role)).toEqual(["system", "user"]);
  });

  it("reads JSON wrapped in a Markdown code fence", async () => {
    const endpoint = await scripted(content(`\`\`\`json\n${VALID_TEXT}\n\`\`\``));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 1 } });
  });

  it("reads a JSON object surrounded by prose", async () => {
    const endpoint = await scripted(content(`Here is the decision:\n${VALID_TEXT}\nLet me know if you need more.`));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 1 } });
  });

  it("falls back to json_object when json_schema is rejected, and starts there on the next call", async () => {
    const endpoint = await start((body) =>
      (body as RequestBody).response_format?.type === "json_schema"
        ? { kind: "status", status: 400, message: "response_format json_schema is not supported" }
        : content(VALID_TEXT),
    );
    const client = clientFor(endpoint);
    const first = await ask(client);
    expect(first).toMatchObject({ ok: true, value: VALID, usage: { calls: 2, format: "json_object" } });
    expect(request(endpoint, 1).response_format).toEqual({ type: "json_object" });
    expect(request(endpoint, 1).messages[0]?.content).toContain("Reply with one JSON object matching this JSON Schema");
    expect(client.format).toBe("json_object");

    const second = await ask(client);
    expect(second).toMatchObject({ ok: true, usage: { calls: 1, format: "json_object" } });
    expect(endpoint.requests()).toHaveLength(3);
    expect(request(endpoint, 2).response_format).toEqual({ type: "json_object" });
  });

  it("falls back to plain text with the schema in the prompt when json_object is rejected too", async () => {
    const endpoint = await start((body) =>
      (body as RequestBody).response_format === undefined ? content(VALID_TEXT) : { kind: "status", status: 422, message: "unsupported parameter" },
    );
    const client = clientFor(endpoint);
    const result = await ask(client);
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 3, format: "text" } });
    expect(endpoint.requests().map((body) => (body as RequestBody).response_format?.type)).toEqual(["json_schema", "json_object", undefined]);
    expect(request(endpoint, 2).messages[0]?.content).toContain('"confidence"');
    expect(client.format).toBe("text");
  });

  it("reports unsupported-format when the endpoint rejects every format", async () => {
    const endpoint = await scripted({ kind: "status", status: 400, message: "bad request" });
    const result = await ask(clientFor(endpoint));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("unsupported-format");
    expect(result.error.status).toBe(400);
    expect(result.usage.calls).toBe(3);
  });

  it("does not take an authentication failure for a format rejection", async () => {
    const endpoint = await scripted({ kind: "status", status: 401, message: "invalid api key" });
    const client = clientFor(endpoint);
    const result = await ask(client);
    expect(result).toMatchObject({ ok: false, error: { code: "http", status: 401 }, usage: { calls: 1 } });
    expect(client.format).toBe("json_schema");
  });

  it("retries once after a blank reply", async () => {
    const endpoint = await scripted(content("  "), content(VALID_TEXT));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 2 } });
    const retry = request(endpoint, 1).messages;
    expect(retry.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(retry[2]?.content).toMatch(/empty/i);
  });

  it("retries once after a reply cut off by the length limit, asking for a shorter object", async () => {
    const endpoint = await scripted(content('{"task": "fix-login", "confid', { finishReason: "length" }), content(VALID_TEXT));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 2 } });
    const retry = request(endpoint, 1).messages;
    expect(retry.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(retry[2]?.content).toBe('{"task": "fix-login", "confid');
    expect(retry[3]?.content).toMatch(/your reply was cut off; reply with a shorter JSON object/i);
  });

  it("gives up with not-json after two malformed replies", async () => {
    const endpoint = await scripted(content("{task: fix-login"), content("I think it is the login task."));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: false, error: { code: "not-json" }, usage: { calls: 2 } });
    expect(request(endpoint, 1).messages.at(-1)?.content).toMatch(/not valid JSON/);
  });

  it("retries once after an off-schema reply, naming the zod issue path", async () => {
    const wrong = JSON.stringify({ task: "fix-login", confidence: 0.9, related: ["docs", 7] });
    const endpoint = await scripted(content(wrong), content(VALID_TEXT));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, value: VALID, usage: { calls: 2 } });
    const retry = request(endpoint, 1).messages;
    expect(retry.at(-2)).toEqual({ role: "assistant", content: wrong });
    expect(retry.at(-1)?.content).toContain("related.1");
  });

  it("gives up with schema after two off-schema replies", async () => {
    const endpoint = await scripted(content(JSON.stringify({ task: "fix-login", confidence: 3, related: [] })));
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: false, error: { code: "schema" }, usage: { calls: 2 } });
    if (!result.ok) expect(result.error.message).toContain("confidence");
  });

  it("gives up quickly with timeout when the endpoint is slower than timeoutMs, without retrying", async () => {
    const endpoint = await scripted(content(VALID_TEXT, { delayMs: 2_000 }));
    const result = await ask(clientFor(endpoint, 300));
    expect(result).toMatchObject({ ok: false, error: { code: "timeout" }, usage: { calls: 1 } });
    expect(result.usage.ms).toBeGreaterThanOrEqual(250);
    expect(result.usage.ms).toBeLessThan(1_500);
  });

  it("gives up with timeout when the endpoint never answers", async () => {
    const endpoint = await scripted({ kind: "hang" });
    const result = await ask(clientFor(endpoint, 300));
    expect(result).toMatchObject({ ok: false, error: { code: "timeout" }, usage: { calls: 1 } });
  });

  it("reports connection when nothing listens at the address", async () => {
    const endpoint = await scripted(content(VALID_TEXT));
    await endpoint.close();
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: false, error: { code: "connection" }, usage: { calls: 1 } });
    if (!result.ok) expect(result.error.message).toContain("ECONNREFUSED");
  });

  it("reports http with the status after a server error, without retrying", async () => {
    const endpoint = await scripted({ kind: "status", status: 500, message: "model crashed" });
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: false, error: { code: "http", status: 500 }, usage: { calls: 1 } });
    expect(endpoint.requests()).toHaveLength(1);
  });

  it("sums tokens over every call it made", async () => {
    const endpoint = await scripted(
      content("not json", { usage: { promptTokens: 100, completionTokens: 3 } }),
      content(VALID_TEXT, { usage: { promptTokens: 120, completionTokens: 20 } }),
    );
    const result = await ask(clientFor(endpoint));
    expect(result).toMatchObject({ ok: true, usage: { calls: 2, inputTokens: 220, outputTokens: 23 } });
  });

  it("sends max_tokens only when the client sets it", async () => {
    const endpoint = await scripted(content(VALID_TEXT));
    await ask(createAuxClient({ baseURL: endpoint.url, model: "aux-test", maxTokens: 256, timeoutMs: TIMEOUT_MS, cooldownMs: COOLDOWN_MS }));
    await ask(clientFor(endpoint));
    expect(request(endpoint, 0).max_tokens).toBe(256);
    expect(request(endpoint, 1)).not.toHaveProperty("max_tokens");
  });
});
