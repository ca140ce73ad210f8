import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ChatRequestBody,
  parseScript,
  type Responder,
  type Script,
  type ScriptedModel,
  ScriptedModelError,
  selectReply,
  startScriptedModel,
} from "../../src/lab/scripted-model/index.js";

const script: Script = parseScript(
  {
    stages: [
      {
        id: "fix-bug",
        when: "fix the bug",
        steps: [{ text: "Let me look.", toolCalls: [{ name: "read", arguments: { filePath: "src/a.ts" } }] }, { text: "Fixed the bug in src/a.ts." }],
      },
      { id: "greet", when: "hello", steps: [{ text: "Hi there!" }] },
    ],
  },
  "test-script",
);

let dir = "";
let servers: ScriptedModel[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "scripted-model-"));
});

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

async function start(s: Script | Responder = script): Promise<ScriptedModel> {
  const server = await startScriptedModel({ script: s, logFile: join(dir, "requests.jsonl"), port: 0 });
  servers.push(server);
  return server;
}

function post(server: ScriptedModel, body: unknown, path = "/chat/completions"): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: {
    delta: {
      role?: string;
      content?: string;
      tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Parses an SSE body into its `data:` payloads (raw strings). */
function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.trim() !== "")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

function user(text: string) {
  return { role: "user", content: text };
}

describe("scripted model server", () => {
  it("streams text and tool calls that reassemble into the scripted reply", async () => {
    const server = await start();
    const res = await post(server, {
      model: "m1",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "system", content: "sys" }, user("please fix the bug")],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");

    const data = sseData(await res.text());
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: "chatcmpl-0", object: "chat.completion.chunk", created: 0, model: "m1" });
    }
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant" });

    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    const contentPieces = deltas.flatMap((d) => (d.content === undefined ? [] : [d.content]));
    expect(contentPieces.length).toBeGreaterThan(1);
    expect(contentPieces.join("")).toBe("Let me look.");

    const calls = new Map<number, { id: string; name: string; args: string }>();
    for (const tc of deltas.flatMap((d) => d.tool_calls ?? [])) {
      const call = calls.get(tc.index) ?? { id: "", name: "", args: "" };
      call.id ||= tc.id ?? "";
      call.name += tc.function.name ?? "";
      call.args += tc.function.arguments ?? "";
      calls.set(tc.index, call);
    }
    expect([...calls.values()]).toEqual([{ id: "call_0_0", name: "read", args: JSON.stringify({ filePath: "src/a.ts" }) }]);

    const finishes = chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter((f) => f !== null);
    expect(finishes).toEqual(["tool_calls"]);

    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usageChunk?.usage?.total_tokens).toBe((usageChunk?.usage?.prompt_tokens ?? 0) + (usageChunk?.usage?.completion_tokens ?? 0));
  });

  it("sends the usage chunk even when stream_options is absent", async () => {
    const server = await start();
    const res = await post(server, { model: "m", stream: true, messages: [user("hello")] });
    const data = sseData(await res.text());
    const usageChunk = JSON.parse(data.at(-2) ?? "{}") as Chunk;
    expect(usageChunk.usage?.completion_tokens).toBeGreaterThanOrEqual(1);
    const finish = JSON.parse(data.at(-3) ?? "{}") as Chunk;
    expect(finish.choices[0]?.finish_reason).toBe("stop");
  });

  it("logs one JSONL line per request in arrival order with the exact body", async () => {
    const server = await start();
    const bodies = [
      { model: "m", messages: [user("hello")], extra: { nested: [1, 2] } },
      { model: "m", stream: true, messages: [user("fix the bug")] },
      { model: "m", messages: [user("something else")] },
    ];
    for (const body of bodies) await (await post(server, body)).text();
    await (await post(server, bodies[0])).text();

    const lines = (await readFile(join(dir, "requests.jsonl"), "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0] ?? "")).toEqual({ index: 0, path: "/v1/chat/completions", body: bodies[0] });
    const recorded = await server.requests();
    expect(recorded.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(recorded.map((r) => r.body)).toEqual([...bodies, bodies[0]]);
  });

  it("accepts /chat/completions without the /v1 prefix", async () => {
    const server = await start();
    const res = await fetch(`http://127.0.0.1:${server.port}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [user("hello")] }),
    });
    expect(res.status).toBe(200);
    expect((await server.requests())[0]?.path).toBe("/chat/completions");
  });

  it("returns a chat.completion object when not streaming", async () => {
    const server = await start();
    const res = await post(server, { model: "m2", messages: [user("fix the bug")] });
    expect(res.status).toBe(200);
    const json = (await res.json()) as Record<string, unknown>;
    expect(json).toMatchObject({
      id: "chatcmpl-0",
      object: "chat.completion",
      created: 0,
      model: "m2",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Let me look.",
            tool_calls: [{ id: "call_0_0", type: "function", function: { name: "read", arguments: '{"filePath":"src/a.ts"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens_details: { cached_tokens: 0 } },
    });
  });

  it("answers invalid JSON with a 400 OpenAI-style error", async () => {
    const server = await start();
    const res = await post(server, "{not json");
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { message: string; type: string } };
    expect(json.error.type).toBe("invalid_request_error");
    expect(json.error.message).toMatch(/JSON/);
  });

  it("answers unknown paths with a 404 OpenAI-style error", async () => {
    const server = await start();
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    const json = (await res.json()) as { error: { message: string } };
    expect(json.error.message).toContain("/v1/nope");
  });

  it("refuses a request over its context window as a provider does, and logs it", async () => {
    const server = await startScriptedModel({ script, logFile: join(dir, "window.jsonl"), contextLimit: 1_000 });
    servers.push(server);
    const fits = await post(server, { model: "m", max_tokens: 500, messages: [user("a".repeat(1_000))] });
    expect(fits.status).toBe(200);
    const over = await post(server, { model: "m", max_tokens: 500, messages: [user("a".repeat(2_000))] });
    expect(over.status).toBe(400);
    const json = (await over.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("context_length_exceeded");
    expect(json.error.message).toMatch(/^This model's maximum context length is 1000 tokens\. However, you requested \d+ tokens/);
    expect(await server.requests()).toHaveLength(2);
  });

  it("counts its neutral directory as /run, so usage and the window do not depend on where a run lives", async () => {
    const usage = async (dirName: string, text: string) => {
      const server = await startScriptedModel({ script, logFile: join(dir, "neutral.jsonl"), contextLimit: 1_000, neutralDir: dirName });
      servers.push(server);
      const response = await post(server, { model: "m", messages: [user(text)] });
      return ((await response.json()) as { usage?: { prompt_tokens: number } }).usage?.prompt_tokens;
    };
    const short = await usage("/r/a", "/r/a/sessions/s/native/ws1: fix it ".repeat(40));
    const long = await usage("/tmp/a/much/longer/run/dir", "/tmp/a/much/longer/run/dir/sessions/s/native/ws1: fix it ".repeat(40));
    expect(long).toBe(short);
    // Without it, the longer path costs tokens.
    expect(await usage("", "/tmp/a/much/longer/run/dir/sessions/s/native/ws1: fix it ".repeat(40))).toBeGreaterThan(short ?? 0);
  });

  it("lists the configured model on GET /v1/models", async () => {
    const server = await startScriptedModel({ script, logFile: join(dir, "log.jsonl"), model: "scripted-x" });
    servers.push(server);
    const res = await fetch(`${server.url}/models`);
    expect(await res.json()).toEqual({ object: "list", data: [{ id: "scripted-x", object: "model" }] });
  });

  it("uses a Responder function and passes it the body and arrival index", async () => {
    const seen: number[] = [];
    const server = await start(({ body, index }) => {
      seen.push(index);
      return { text: `reply ${index} to ${body.messages.length} messages` };
    });
    await (await post(server, { model: "m", messages: [user("a")] })).text();
    const res = await post(server, { model: "m", messages: [user("a"), { role: "assistant", content: "x" }] });
    const json = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(json.choices[0]?.message.content).toBe("reply 1 to 2 messages");
    expect(seen).toEqual([0, 1]);
  });

  it("returns 500 with the message when a Responder throws, and still logs the request", async () => {
    const server = await start(() => {
      throw new Error("responder exploded");
    });
    const res = await post(server, { model: "m", stream: true, messages: [user("a")] });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("responder exploded");
    expect(await server.requests()).toHaveLength(1);
  });

  it("answers with the status of a ScriptedModelError thrown by a Responder", async () => {
    const server = await start(() => {
      throw new ScriptedModelError(400, "rejected on purpose");
    });
    const res = await post(server, { model: "m", stream: true, messages: [user("a")] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("rejected on purpose");
  });

  it("closes promptly even with an idle keep-alive connection", async () => {
    const server = await start();
    await (await post(server, { model: "m", messages: [user("hello")] })).text();
    await server.close();
    servers = [];
    await expect(fetch(`${server.url}/models`)).rejects.toThrow();
  });
});

describe("selectReply", () => {
  const body = (messages: ChatRequestBody["messages"]): ChatRequestBody => ({ messages });

  it("picks the first stage whose when is in the latest user message", () => {
    const result = selectReply({ script, body: body([user("hello"), { role: "assistant", content: "hi" }, user("now fix the bug, hello")]) });
    expect(result).toEqual({ stageId: "fix-bug", step: 0, reply: script.stages[0]?.steps[0] });
  });

  it("counts assistant messages after the latest user message as the step", () => {
    const result = selectReply({
      script,
      body: body([user("fix the bug"), { role: "assistant", content: null, tool_calls: [] }, { role: "tool", content: "file contents" }]),
    });
    expect(result.stageId).toBe("fix-bug");
    expect(result.step).toBe(1);
    expect(result.reply).toEqual({ text: "Fixed the bug in src/a.ts." });
  });

  it("reads text parts of array content joined by newlines", () => {
    const result = selectReply({
      script,
      body: body([{ role: "user", content: [{ type: "text", text: "please fix" }, { type: "image_url" }, { type: "text", text: "the bug" }] }]),
    });
    expect(result.stageId).toBe(null);
    const joined = selectReply({
      script,
      body: body([
        {
          role: "user",
          content: [
            { type: "text", text: "x" },
            { type: "text", text: "fix the bug" },
          ],
        },
      ]),
    });
    expect(joined.stageId).toBe("fix-bug");
  });

  it("falls back when the steps run out", () => {
    const result = selectReply({
      script,
      body: body([user("hello"), { role: "assistant", content: "Hi there!" }]),
    });
    expect(result).toEqual({ stageId: "greet", step: 1, reply: { text: "Done." } });
  });

  it("answers OpenCode's compaction request with the summary, even though it quotes a stage's words", () => {
    const quoted = "Here is the conversation so far:\n\n<conversation>\n[User]: hello there\n</conversation>";
    const custom: Script = { stages: [{ id: "s", when: "hello", steps: [{ toolCalls: [{ name: "bash", arguments: {} }] }] }], summary: "## Goal\n- greet" };
    expect(selectReply({ script: custom, body: body([user(quoted)]) })).toEqual({
      stageId: "(compaction)",
      step: 0,
      reply: { text: "## Goal\n- greet" },
    });
  });

  it("falls back with a null stage when nothing matches", () => {
    const custom: Script = { stages: [], fallback: { text: "Nothing to do." } };
    expect(selectReply({ script: custom, body: body([user("anything")]) })).toEqual({
      stageId: null,
      step: 0,
      reply: { text: "Nothing to do." },
    });
    expect(selectReply({ script: { stages: [] }, body: body([]) }).reply).toEqual({ text: "Done." });
  });
});

describe("parseScript", () => {
  it("fills in the default fallback", () => {
    expect(parseScript({ stages: [] }).fallback).toEqual({ text: "Done." });
  });

  it("names the source and field path of a reply without text or toolCalls", () => {
    const bad = {
      stages: [
        { id: "a", when: "a", steps: [{ text: "ok" }] },
        { id: "b", when: "b", steps: [{ text: "ok" }] },
        { id: "c", when: "c", steps: [{}] },
      ],
    };
    expect(() => parseScript(bad, "script.json")).toThrow("script.json: stages[2].steps[0]: text or toolCalls is required");
  });

  it("rejects reasoning and misspelled fields with their path", () => {
    expect(() => parseScript({ stages: [{ id: "a", when: "a", steps: [{ text: "x", reasoning: "y" }] }] }, "s.json")).toThrow(
      /^s\.json: stages\[0\]\.steps\[0\]/,
    );
    expect(() => parseScript({ stages: [{ id: "a", when: "a", steps: [{ toolCalls: [{ name: "bash" }] }] }] })).toThrow(
      "script: stages[0].steps[0].toolCalls[0].arguments",
    );
  });
});
