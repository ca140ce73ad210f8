import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry, packageRoot } from "../../src/kit/package-root.js";
import { createTodoRepo, EXPECTED_MODEL_CALLS, FINAL_TODO, multiTaskScript, PROMPTS } from "../../src/lab/demo/multi-task-session.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { runScriptedSession, type ScriptedSessionResult, withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, messageText } from "../../src/lab/scripted-model/index.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { unfinishedTasks } from "../../src/plugin/store/unfinished-tasks.js";
import { makeTempDir } from "../support/temp-dir.js";

// The built plug-in, loaded by the real OpenCode exactly as a user's opencode.json would.
const PLUGIN = builtEntry("./server");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
// Every run works in the same repository path, recreated identically, so requests of
// different runs can be compared byte for byte.
let repo: string;
let runs = 0;

async function runWith(plugins: readonly PluginEntry[]): Promise<ScriptedSessionResult & { todo: string }> {
  await rm(repo, { recursive: true, force: true });
  await createTodoRepo(repo);
  const result = await runScriptedSession({
    runDir: join(temp.path, `run-${++runs}`),
    directory: repo,
    script: multiTaskScript(repo),
    prompts: PROMPTS,
    plugins,
  });
  return { ...result, todo: await readFile(join(repo, "notes", "todo.md"), "utf8") };
}

function bodies(result: ScriptedSessionResult): string[] {
  return result.requests.map((request) => JSON.stringify(request.body));
}

/** The bodies without the plug-in's own tools, which the routing modes offer whatever their hooks do. */
function bodiesWithoutOwnTool(result: ScriptedSessionResult): string[] {
  return result.requests.map((request) => {
    const body = request.body as ChatRequestBody & { tools?: { function?: { name?: string } }[] };
    const tools = body.tools?.filter((tool) => tool.function?.name !== "rcm_tasks" && tool.function?.name !== "rcm_recall");
    return JSON.stringify(tools === undefined ? body : { ...body, tools });
  });
}

function lastUserText(body: unknown): string {
  const messages = (body as ChatRequestBody).messages;
  const last = messages.findLast((message) => message.role === "user");
  return messageText(last?.content);
}

let baseline: Awaited<ReturnType<typeof runWith>>;

beforeAll(async () => {
  temp = await makeTempDir("rcm-e2e");
  repo = join(temp.path, "repo");
  baseline = await runWith([]);
}, 180_000);

afterAll(async () => {
  await temp?.remove();
});

describe("the real OpenCode with the scripted model", () => {
  it("runs a multi-request session whose tool calls really change the repository", () => {
    expect(baseline.todo).toBe(FINAL_TODO);
    expect(baseline.requests).toHaveLength(EXPECTED_MODEL_CALLS);
    const last = baseline.requests.at(-1)?.body as ChatRequestBody;
    const userTexts = last.messages.filter((message) => message.role === "user").map((message) => messageText(message.content));
    expect(userTexts).toEqual([...PROMPTS]);
    const toolResults = last.messages.filter((message) => message.role === "tool").map((message) => messageText(message.content));
    expect(toolResults.some((text) => text.includes("- update docs and changelog") && text.includes("?? notes/"))).toBe(true);
    expect(toolResults.some((text) => /^\s*2\s*$/.test(text))).toBe(true);
  });
});

describe("opencode-rcm loaded into the real OpenCode", () => {
  it("in native mode sends the model byte-identical requests to a run without the plug-in", async () => {
    const native = await runWith([[PLUGIN, { mode: "native" }]]);
    expect(native.serverOutput).toContain("loaded in native mode");
    expect(native.todo).toBe(FINAL_TODO);
    expect(bodies(native)).toEqual(bodies(baseline));
  });

  it("with the debug option annotates every request it passes on, which proves it ran", async () => {
    const debug = await runWith([[PLUGIN, { mode: "native", debug: true }]]);
    expect(debug.requests).toHaveLength(EXPECTED_MODEL_CALLS);
    const annotations = debug.requests.map((request) => /\[opencode-rcm debug\][^\n]*/.exec(lastUserText(request.body))?.[0]);
    expect(annotations[0]).toBe("[opencode-rcm debug] mode=native messages=1 groups=1 (request=1)");
    expect(annotations.at(-1)).toMatch(/^\[opencode-rcm debug\] mode=native messages=\d+ groups=3 \(request=3\)$/);
    expect(annotations.every((annotation) => annotation !== undefined)).toBe(true);
    expect(bodies(debug)).not.toEqual(bodies(baseline));
  });

  it("loads from a bare path entry (the package directory) with the default options", async () => {
    const bare = await runWith([packageRoot()]);
    expect(bare.serverOutput).toContain("loaded in full mode");
    expect(bare.todo).toBe(FINAL_TODO);
  });

  it("drops only a bad option value and an unknown key, names both, and runs with the rest", async () => {
    const invalid = await runWith([[PLUGIN, { mode: "turbo", confidenceTreshold: 0.5, debug: true }]]);
    expect(invalid.serverOutput).toContain('invalid mode = \\"turbo\\"');
    expect(invalid.serverOutput).toContain('using the default \\"full\\"');
    expect(invalid.serverOutput).toContain("unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored");
    expect(invalid.serverOutput).toContain("loaded in full mode");
    expect(invalid.todo).toBe(FINAL_TODO);
    // debug still applies: the other keys were kept.
    expect(JSON.stringify(invalid.requests.at(-1)?.body)).toContain("[opencode-rcm debug] mode=full");
  });

  it("keeps every turn working when its hooks throw, and logs the failure once per session", async () => {
    // A real fault: the state directory is a file, so no session state loads or saves and every hook's work throws.
    const notADirectory = join(temp.path, "state-is-a-file");
    await writeFile(notADirectory, "");
    const failing = await runWith([[PLUGIN, { mode: "full", debug: true, stateDir: notADirectory }]]);
    expect(failing.todo).toBe(FINAL_TODO);
    // The plug-in's tools are offered (they are no hook), but every message is OpenCode's own.
    expect(JSON.stringify(failing.requests[0]?.body)).toContain('"name":"rcm_tasks"');
    expect(JSON.stringify(failing.requests[0]?.body)).toContain('"name":"rcm_recall"');
    expect(bodiesWithoutOwnTool(failing)).toEqual(bodies(baseline));
    expect(failing.serverOutput.match(/transform failed; falling back/g)).toHaveLength(1);
    expect(failing.serverOutput.match(/chat\.message failed; falling back/g)).toHaveLength(1);
    expect(failing.serverOutput.match(/tool gate failed; the plug-in's tools stay offered/g)).toHaveLength(1);
  });

  it("leaves a sub-agent's session untouched, knowing it from OpenCode's announcement of the session", async () => {
    await rm(repo, { recursive: true, force: true });
    await createTodoRepo(repo);
    const stateDir = join(temp.path, "subagent-state");
    const script = multiTaskScript(repo);
    await withScriptedOpencode(
      { runDir: join(temp.path, `run-${++runs}`), directory: repo, script, plugins: [[PLUGIN, { mode: "full", stateDir }]] },
      async ({ client, prompt, messages }) => {
        const parent = (await client.session.create({}, { throwOnError: true })).data.id;
        const child = (await client.session.create({ parentID: parent, title: "sub-agent" }, { throwOnError: true })).data.id;
        await prompt(parent, PROMPTS[0] as string);
        await prompt(child, PROMPTS[1] as string);
        expect((await messages(child)).some((message) => message.info.role === "assistant")).toBe(true);
        // The parent's requests are routed and kept; nothing is ever written for the sub-agent's.
        expect(JSON.parse(await readFile(sessionStatePath(stateDir, parent), "utf8")).data.ledger.order).toHaveLength(1);
        await expect(readFile(sessionStatePath(stateDir, child), "utf8")).rejects.toThrow(/ENOENT/);
      },
    );
  });

  it("lists a deleted session's unfinished tasks no more, its state file kept", async () => {
    await rm(repo, { recursive: true, force: true });
    await createTodoRepo(repo);
    const stateDir = join(temp.path, "deleted-state");
    const listed = async () => (await unfinishedTasks({ stateDir, now: new Date(), maxAgeDays: undefined, maxTasks: undefined })).tasks.length;
    await withScriptedOpencode(
      { runDir: join(temp.path, `run-${++runs}`), directory: repo, script: multiTaskScript(repo), plugins: [[PLUGIN, { mode: "full", stateDir }]] },
      async ({ client, prompt }) => {
        const session = (await client.session.create({}, { throwOnError: true })).data.id;
        await prompt(session, PROMPTS[0] as string);
        expect(await listed()).toBeGreaterThan(0);
        await client.session.delete({ sessionID: session }, { throwOnError: true });
        await expect.poll(listed, { timeout: 10_000 }).toBe(0);
        await expect(readFile(sessionStatePath(stateDir, session), "utf8")).resolves.toContain(session);
      },
    );
  });
});
