import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { completeJson, createAuxClient } from "../../src/aux/index.js";
import { startFakeAuxEndpoint, type FakeAuxEndpoint, type FakeReply } from "../../src/harness/fake-aux-endpoint.js";

interface CorpusEntry {
  kind: string;
  context: string;
  secret: string;
}

const CORPUS = readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "secrets", "corpus.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CorpusEntry);

const Schema = z.object({ task: z.string() });

let endpoints: FakeAuxEndpoint[] = [];

afterEach(async () => {
  await Promise.all(endpoints.map((endpoint) => endpoint.close()));
  endpoints = [];
});

/** How a secret could show up in a serialised request body: raw, JSON-escaped, or line by line. */
function leaks(secret: string): string[] {
  const lines = secret.split(/\n|\\n/).filter((line) => line.trim().length >= 8);
  return [secret, JSON.stringify(secret).slice(1, -1), ...lines];
}

describe("completeJson redacts secrets", () => {
  it("sends no corpus secret to the endpoint: system, user, the echoed reply or the retry", async () => {
    const [inSystem, ...inUser] = CORPUS;
    const echoed = CORPUS.at(-1);
    if (!inSystem || !echoed) throw new Error("empty corpus");
    // The first reply is not JSON and repeats a secret, so the retry sends it back as the assistant message.
    const replies: FakeReply[] = [
      { kind: "content", content: `Sure! I found this in the logs: ${echoed.context}` },
      { kind: "content", content: JSON.stringify({ task: "rotate-keys" }) },
    ];
    const endpoint = await startFakeAuxEndpoint({ respond: (_body, index) => replies[index] ?? { kind: "hang" } });
    endpoints.push(endpoint);

    const result = await completeJson({
      client: createAuxClient({ baseURL: endpoint.url, model: "aux-test", timeoutMs: 5_000 }),
      name: "route_decision",
      schema: Schema,
      system: `You route requests to tasks. Project notes:\n${inSystem.context}`,
      user: ["Here is what the user pasted:", ...inUser.map((entry) => entry.context)].join("\n\n"),
    });

    expect(result).toMatchObject({ ok: true, value: { task: "rotate-keys" }, usage: { calls: 2 } });
    const bodies = endpoint.requests();
    expect(bodies).toHaveLength(2);
    const retry = (bodies[1] as { messages: { role: string; content: string }[] }).messages;
    expect(retry.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(retry[2]?.content).toContain(`[REDACTED:${echoed.kind}]`);

    for (const body of bodies) {
      const serialised = JSON.stringify(body);
      for (const entry of CORPUS) {
        for (const leak of leaks(entry.secret)) expect(serialised, `${entry.kind} leaked`).not.toContain(leak);
      }
      // The prompts did arrive, redacted.
      expect(serialised).toContain(`[REDACTED:${inSystem.kind}]`);
      for (const kind of new Set(inUser.map((entry) => entry.kind))) expect(serialised).toContain(`[REDACTED:${kind}]`);
    }
  });
});
