import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadRedactionCorpus } from "../../src/dev/evaluate-redaction.js";
import { completeJson } from "../../src/plugin/auxiliary/complete-json.js";
import { createAuxClient } from "../../src/plugin/auxiliary/endpoint-client.js";
import { COOLDOWN_MS } from "../support/defaults.js";
import { type FakeAuxEndpoint, type FakeReply, startFakeAuxEndpoint } from "../support/fake-aux-endpoint.js";

// The secrets-world corpus's train split: the part the redactor is known to catch whole (the
// test split is measured by scripts/redaction-eval.mjs, not asserted).
const CORPUS = (await loadRedactionCorpus(join(import.meta.dirname, "..", "..", "fixtures", "secrets-world"))).positives.filter(
  (entry) => entry.split === "train",
);

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
      client: createAuxClient({ baseURL: endpoint.url, model: "aux-test", timeoutMs: 5_000, cooldownMs: COOLDOWN_MS }),
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
    expect(retry[2]?.content).toContain("[REDACTED:");

    for (const body of bodies) {
      const serialised = JSON.stringify(body);
      for (const entry of CORPUS) {
        for (const leak of entry.secrets.flatMap(leaks)) expect(serialised, `${entry.id} leaked`).not.toContain(leak);
      }
      // The prompts did arrive, redacted: at least one marker per entry sent.
      expect(serialised.match(/\[REDACTED:/g)?.length ?? 0).toBeGreaterThanOrEqual(CORPUS.length);
    }
  });
});
