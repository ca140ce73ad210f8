import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { type ScriptedOpencode, withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, messageText, type RecordedRequest, type Reply, type Responder } from "../../src/lab/scripted-model/index.js";
import type { LedgerEntry } from "../../src/plugin/core/routing/ledger.js";
import { SessionStateSchema } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { makeTempDir } from "../support/temp-dir.js";

const PLUGIN = builtEntry("./server");

// The router prompt's system line: how the scripted model tells an aux call from the agent's own.
const ROUTER_SYSTEM = "You assign requests in a coding-agent session to tasks.";

const FIRST = "Add a parse_duration function to timeutil/parse.py that accepts values like 90s and 5m and returns seconds.";
const FOLLOW_UP = "run the tests again";
// No evidence for the current task, though it reads like a follow-up: the lexical router is unsure.
const UNSURE = [
  "also add a dark mode toggle to the settings page",
  "now the login form should remember the email",
  "and the footer links are broken on mobile",
];

function isAuxCall(body: ChatRequestBody): boolean {
  return body.messages.some((message) => message.role === "system" && messageText(message.content).includes(ROUTER_SYSTEM));
}

/** The request an aux call routes: the text inside `<request>`. */
function routedText(body: ChatRequestBody): string {
  for (const message of body.messages) {
    const match = /<request>\n?([\s\S]*?)\n?<\/request>/.exec(messageText(message.content));
    if (match?.[1] !== undefined) return match[1].trim();
  }
  return "";
}

/** A scripted provider that answers the agent with "Done." and routing calls as `route` says. */
function responder(route: (text: string) => Reply | Promise<Reply>): Responder {
  return ({ body }) => (isAuxCall(body) ? route(routedText(body)) : { text: "Done." });
}

const decisionReply = (task: string, confidence: number, reason: string): Reply => ({
  text: JSON.stringify({ task, title: task === "new" ? "Settings page dark mode" : "", confidence, related: [], shared: false, reason }),
});

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-opencode-models-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

async function run(
  name: string,
  options: { router: "model" | "hybrid"; aux?: Record<string, unknown>; route: (text: string) => Reply | Promise<Reply>; prompts: readonly string[] },
) {
  const repo = join(temp.path, name, "repo");
  await createGitRepo(repo, { "README.md": "# tools\n", "timeutil/parse.py": "def parse(text):\n    return text\n" });
  const stateDir = join(temp.path, name, "state");
  const plugins = [[PLUGIN, { mode: "router", router: options.router, stateDir, aux: { timeoutMs: 1500, ...options.aux } }]] satisfies PluginEntry[];
  return withScriptedOpencode(
    { runDir: join(temp.path, name, "run"), directory: repo, script: responder(options.route), plugins },
    async (context: ScriptedOpencode) => {
      const session = await context.client.session.create({}, { throwOnError: true });
      const sessionID = session.data.id;
      const durations: number[] = [];
      for (const text of options.prompts) {
        const started = performance.now();
        await context.prompt(sessionID, text);
        durations.push(performance.now() - started);
      }
      const sessions = await context.client.session.list({}, { throwOnError: true });
      const file = JSON.parse(await readFile(sessionStatePath(stateDir, sessionID), "utf8")) as { data: unknown };
      const { ledger } = SessionStateSchema.parse(file.data);
      const entries = ledger.order.map((id) => ledger.decisions[id] as LedgerEntry);
      return { sessionID, requests: await context.model.requests(), sessions: sessions.data, entries, durations, output: context.server.output() };
    },
  );
}

function auxRequests(requests: readonly RecordedRequest[]): ChatRequestBody[] {
  return requests.map((request) => request.body as ChatRequestBody).filter(isAuxCall);
}

describe("the model router through OpenCode's own models (no endpoint, no key)", () => {
  it("routes an interleaved session with the session's provider, counts its calls, and leaves no child session behind", async () => {
    const result = await run("model", {
      router: "model",
      route: (text) => (text === UNSURE[0] ? decisionReply("new", 0.9, "a different page") : decisionReply("t1", 0.9, "same parser work")),
      prompts: [FIRST, FOLLOW_UP, UNSURE[0] as string],
    });

    // One aux call per request after the first, through the scripted provider, with no tools offered.
    const aux = auxRequests(result.requests);
    expect(aux.map(routedText)).toEqual([FOLLOW_UP, UNSURE[0]]);
    for (const body of aux) expect((body as { tools?: unknown[] }).tools ?? []).toEqual([]);
    // The agent's own calls never carry the router prompt, and the aux calls carry nothing of the plug-in's.
    const main = result.requests.map((request) => request.body as ChatRequestBody).filter((body) => !isAuxCall(body));
    expect(main).toHaveLength(3);
    for (const body of aux) expect(JSON.stringify(body)).not.toContain("rcm-task-memory");

    // The decisions are the model's, with its tokens counted as aux usage.
    const [first, followUp, unsure] = result.entries;
    expect(first).toMatchObject({ router: "lexical", task: "t1", opened: true });
    expect(followUp).toMatchObject({ router: "model", task: "t1", confidence: 0.9, reason: "same parser work" });
    expect(unsure).toMatchObject({ router: "model", task: "t2", opened: true });
    for (const entry of [followUp, unsure]) {
      expect(entry?.aux?.calls).toBe(1);
      expect(entry?.aux?.inputTokens).toBeGreaterThan(0);
      expect(entry?.aux?.outputTokens).toBeGreaterThan(0);
      expect(entry?.aux?.error).toBeUndefined();
    }

    // The child sessions were deleted: the user's list holds the one session they made.
    expect(result.sessions.map((session) => session.id)).toEqual([result.sessionID]);
  }, 120_000);

  it("asks the model only for the requests the lexical router is unsure of, in hybrid mode", async () => {
    const result = await run("hybrid", {
      router: "hybrid",
      route: () => decisionReply("new", 0.9, "a different page"),
      prompts: [FIRST, FOLLOW_UP, UNSURE[0] as string],
    });
    expect(auxRequests(result.requests).map(routedText)).toEqual([UNSURE[0]]);
    const [, followUp, unsure] = result.entries;
    expect(followUp?.router).toBe("lexical");
    expect(followUp?.reason).toContain("decided without the model");
    expect(followUp?.aux).toBeUndefined();
    expect(unsure).toMatchObject({ router: "model", opened: true, aux: { calls: 1 } });
  }, 120_000);

  it("pays for a hanging provider with one timeout per cool-down, then falls back at once", async () => {
    const hang = () => new Promise<Reply>(() => undefined);
    const result = await run("hanging", {
      router: "hybrid",
      aux: { timeoutMs: 1500, cooldownMs: 600_000 },
      route: hang,
      prompts: [FIRST, ...UNSURE],
    });
    // Only the first unsure request reached the provider.
    expect(auxRequests(result.requests).map(routedText)).toEqual([UNSURE[0]]);
    const [, timedOut, ...skipped] = result.entries;
    expect(timedOut?.aux?.error).toMatch(/^timeout: /);
    expect(timedOut?.aux?.ms).toBeGreaterThanOrEqual(1400);
    for (const entry of skipped) {
      expect(entry.router).toBe("lexical");
      expect(entry.aux?.error).toMatch(/^cooling-down: /);
      expect(entry.aux?.calls).toBe(0);
      expect(entry.aux?.ms).toBeLessThan(200);
    }
    // Every turn was answered; the skipped ones did not wait for the provider.
    const [, slow, ...fast] = result.durations;
    expect(slow).toBeGreaterThanOrEqual(1400);
    for (const duration of fast) expect(duration).toBeLessThan((slow ?? 0) + 5_000);
    expect(result.sessions.map((session) => session.id)).toEqual([result.sessionID]);
  }, 120_000);
});
