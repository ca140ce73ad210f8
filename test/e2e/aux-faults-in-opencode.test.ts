import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, isCompactionRequest, messageText } from "../../src/lab/scripted-model/index.js";
import type { LedgerEntry } from "../../src/plugin/core/routing/ledger.js";
import { SessionStateSchema } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { type FakeAuxEndpoint, type FakeReply, startFakeAuxEndpoint } from "../support/fake-aux-endpoint.js";
import { makeTempDir } from "../support/temp-dir.js";

const PLUGIN = builtEntry("./server");

// Per aux call; the slow reply takes three times as long.
const AUX_TIMEOUT_MS = 1000;

// Plain follow-ups about one small repository: no workspace path, no issue or task number,
// no "back to", so the model router really asks the aux model for each (except the first).
const FIRST = "Add a multiply function to the calculator module next to add.";
const FAULTS = {
  timeout: "Make multiply reject values that are not numbers.",
  notJson: "Give multiply a docstring that explains the arguments.",
  fenced: "Rename the multiply arguments to left and right.",
  blank: "Add type hints to multiply and add in the calculator module.",
  length: "Make the calculator functions accept floats as well as integers.",
  schema: "Describe the calculator functions in the readme.",
  http: "Sort the calculator functions alphabetically in the module.",
  connection: "Remove the unused import from the calculator module.",
} as const;
type Fault = keyof typeof FAULTS;

/** The code each fault's failure is reported with, and how many aux calls it takes. */
const EXPECTED: Record<Exclude<Fault, "fenced">, { code: string; calls: number }> = {
  timeout: { code: "timeout", calls: 1 },
  notJson: { code: "not-json", calls: 2 },
  blank: { code: "blank", calls: 2 },
  length: { code: "length", calls: 2 },
  schema: { code: "schema", calls: 2 },
  http: { code: "http", calls: 1 },
  connection: { code: "connection", calls: 1 },
};

const VALID_DECISION = { task: "t1", title: "", confidence: 0.9, related: [], shared: false, reason: "same topic" };

function replyFor(fault: Fault | undefined): FakeReply {
  switch (fault) {
    case "timeout":
      return { kind: "content", content: JSON.stringify(VALID_DECISION), delayMs: AUX_TIMEOUT_MS * 3 };
    case "notJson":
      return { kind: "content", content: '{"task": ' };
    case "fenced":
      return { kind: "content", content: `\`\`\`json\n${JSON.stringify(VALID_DECISION, null, 2)}\n\`\`\`` };
    case "blank":
      return { kind: "content", content: "" };
    case "length":
      return { kind: "content", content: '{"task": "t1", "title": "", "confid', finishReason: "length" };
    case "schema":
      return { kind: "content", content: JSON.stringify({ task: "t99", confidence: 2 }) };
    case "http":
      return { kind: "status", status: 500, message: "internal failure of the fake router" };
    default:
      // Unknown request (should not happen): an answer that is obviously wrong for any schema.
      return { kind: "status", status: 503, message: "unexpected request" };
  }
}

/** The request an aux call is about: the text inside `<request>` of the prompt (retries repeat it). */
function auxRequestText(body: unknown): string {
  const messages = (body as ChatRequestBody).messages;
  for (const message of messages) {
    const match = /<request>\n?([\s\S]*?)\n?<\/request>/.exec(messageText(message.content));
    if (match?.[1] !== undefined) return match[1].trim();
  }
  return "";
}

function faultOf(text: string): Fault | undefined {
  return (Object.keys(FAULTS) as Fault[]).find((fault) => text.includes(FAULTS[fault]));
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-aux-faults-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("the model router against a misbehaving aux endpoint inside the real OpenCode", () => {
  it("completes every turn and falls back to the lexical decision with the reason logged", async () => {
    const started = performance.now();
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, {
      "README.md": "# calculator\n",
      "calculator.py": "import os\n\n\ndef add(a, b):\n    return a + b\n",
    });
    const stateDir = join(temp.path, "state");
    let endpoint: FakeAuxEndpoint | undefined;
    try {
      endpoint = await startFakeAuxEndpoint({ respond: (body) => replyFor(faultOf(auxRequestText(body))) });
      const aux = endpoint;
      const plugins = [
        [
          PLUGIN,
          {
            mode: "router",
            router: "model",
            // Each fault must reach the endpoint: no cool-down between them.
            aux: { baseURL: aux.url, model: "fake-router", timeoutMs: AUX_TIMEOUT_MS, cooldownMs: 0 },
            stateDir,
            debug: true,
          },
        ],
      ] satisfies PluginEntry[];
      const prompts = [FIRST, ...Object.values(FAULTS)];

      const run = await withScriptedOpencode(
        { runDir: join(temp.path, "run"), directory: repo, script: { stages: [], fallback: { text: "Done." } }, plugins },
        async ({ client, server, model, prompt, messages }) => {
          const session = await client.session.create({}, { throwOnError: true });
          const sessionID = session.data.id;
          for (const text of prompts) {
            if (text === FAULTS.connection) await aux.close();
            await prompt(sessionID, text);
          }
          return { sessionID, messages: await messages(sessionID), requests: await model.requests(), output: server.output() };
        },
      );

      // Every turn got an assistant reply without an error.
      const userMessages = run.messages.filter((message) => message.info.role === "user");
      expect(userMessages).toHaveLength(prompts.length);
      for (const [position, user] of userMessages.entries()) {
        const text = user.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
        expect(text).toContain(prompts[position]);
        const replies = run.messages.filter((message) => message.info.role === "assistant" && message.info.parentID === user.info.id);
        expect(replies.length, `reply to ${JSON.stringify(prompts[position])}`).toBeGreaterThan(0);
        for (const reply of replies) {
          expect(reply.info.role === "assistant" ? reply.info.error : undefined, `error answering ${JSON.stringify(prompts[position])}`).toBeUndefined();
        }
      }

      // The main model got exactly one call per request.
      const mainRequests = run.requests.filter((request) => {
        const body = request.body as ChatRequestBody;
        const lastUser = body.messages.findLast((message) => message.role === "user");
        return !isCompactionRequest(messageText(lastUser?.content));
      });
      expect(mainRequests).toHaveLength(prompts.length);
      for (const [position, request] of mainRequests.entries()) {
        const body = request.body as ChatRequestBody;
        const lastUser = body.messages.findLast((message) => message.role === "user");
        expect(messageText(lastUser?.content)).toContain(prompts[position]);
      }

      // The aux endpoint: nothing for the first request, one or two calls per fault.
      const auxCalls = new Map<string, number>();
      for (const body of aux.requests()) {
        const text = auxRequestText(body);
        auxCalls.set(text, (auxCalls.get(text) ?? 0) + 1);
      }
      expect(auxCalls.has(FIRST)).toBe(false);
      expect(Object.fromEntries(auxCalls)).toEqual({
        [FAULTS.timeout]: 1,
        [FAULTS.notJson]: 2,
        [FAULTS.fenced]: 1,
        [FAULTS.blank]: 2,
        [FAULTS.length]: 2,
        [FAULTS.schema]: 2,
        [FAULTS.http]: 1,
      });

      // Each failure's reason is in the server log.
      for (const { code } of Object.values(EXPECTED)) expect(run.output).toContain(`model router failed (${code}`);
      expect(run.output).toContain("confidence 0.9: same topic");

      // The ledger: the fenced answer is the model's decision, the rest fell back to lexical.
      const file = JSON.parse(await readFile(sessionStatePath(stateDir, run.sessionID), "utf8")) as { data: unknown };
      const { ledger } = SessionStateSchema.parse(file.data);
      expect(ledger.order).toEqual(userMessages.map((user) => user.info.id));
      const decisionFor = (text: string): LedgerEntry => {
        const id = ledger.order[prompts.indexOf(text)];
        const entry = id === undefined ? undefined : ledger.decisions[id];
        if (!entry) throw new Error(`no decision for ${JSON.stringify(text)}`);
        return entry;
      };

      const first = decisionFor(FIRST);
      expect(first.router).toBe("lexical");
      expect(first.reason).toContain("decided without the model");
      expect(first.aux).toBeUndefined();

      const fenced = decisionFor(FAULTS.fenced);
      expect(fenced).toMatchObject({ router: "model", task: "t1", confidence: 0.9, reason: "same topic" });
      expect(fenced.aux?.calls).toBe(1);
      expect(fenced.aux?.error).toBeUndefined();

      for (const [fault, { code, calls }] of Object.entries(EXPECTED)) {
        const entry = decisionFor(FAULTS[fault as Fault]);
        expect(entry.router, fault).toBe("lexical");
        expect(entry.reason, fault).toMatch(new RegExp(`^model router failed \\(${code}: [\\s\\S]*\\); lexical: `));
        expect(entry.aux?.error?.startsWith(`${code}: `), `${fault}: ${entry.aux?.error}`).toBe(true);
        expect(entry.aux?.calls, fault).toBe(calls);
      }
      // The slow call was cut at the timeout, not waited out.
      expect(decisionFor(FAULTS.timeout).aux?.ms).toBeLessThan(AUX_TIMEOUT_MS * 3);
    } finally {
      await endpoint?.close();
    }
    expect(performance.now() - started).toBeLessThan(90_000);
  }, 120_000);
});
