import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { simulatePrefixCache } from "../../src/lab/bench/metrics/prefix-cache.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import type { ChatRequestBody, RecordedRequest, Script } from "../../src/lab/scripted-model/index.js";
import { THRESHOLD } from "../support/defaults.js";
import { makeTempDir } from "../support/temp-dir.js";
import { fourTaskScript, REPO_FILES, REQUESTS, readState } from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");
// Back on the first task, whose call leaves the second out; the agent fetches it.
const RECALL = `${REQUESTS.A2} Keep the change small.`;
const RECALLED = "Read t2: the CSV exporter quotes commas.";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-recall-tool-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

function script(repo: string): Script {
  const base = fourTaskScript(repo);
  return {
    ...base,
    stages: [{ id: "RECALL", when: RECALL, steps: [{ toolCalls: [{ name: "rcm_recall", arguments: { task: "t2" } }] }, { text: RECALLED }] }, ...base.stages],
  };
}

/** The tool names a chat request offered the model. */
function offeredTools(request: RecordedRequest): string[] {
  const tools = (request.body as { tools?: { function?: { name?: string } }[] }).tools ?? [];
  return tools.map((tool) => tool.function?.name ?? "");
}

/** A call as a provider's prefix cache sees it: tools, then each message. */
function serialised(request: RecordedRequest): string {
  const body = request.body as ChatRequestBody & { tools?: unknown };
  return [JSON.stringify(body.tools ?? []), ...body.messages.map((message) => JSON.stringify(message))].join("\n");
}

describe("rcm_recall inside the real OpenCode (mode router)", () => {
  it("is offered only once a second task opens, brings back the hidden task's request, and is noted in the state; a one-task session never sees it", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO_FILES);
    const stateDir = join(temp.path, "state");
    const plugin: PluginEntry = [PLUGIN, { mode: "router", stateDir }];
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: script(repo), plugins: [plugin] },
      async ({ client, model, prompt, messages }) => {
        let seen = 0;
        const turn = async (sessionID: string, text: string): Promise<RecordedRequest[]> => {
          await prompt(sessionID, text);
          const requests = await model.requests();
          const own = requests.slice(seen);
          seen = requests.length;
          return own;
        };

        const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
        const turns = { A1: await turn(sessionID, REQUESTS.A1), B1: await turn(sessionID, REQUESTS.B1), RECALL: await turn(sessionID, RECALL) };
        for (const [name, requests] of Object.entries(turns)) {
          const offered = requests.map(offeredTools);
          expect(offered.length, name).toBeGreaterThan(1);
          for (const names of offered) expect(names, name).toContain("bash");
          // Router mode keeps no records: rcm_tasks is never registered.
          for (const names of offered) expect(names, name).not.toContain("rcm_tasks");
          expect(
            offered.map((names) => names.includes("rcm_recall")),
            name,
          ).toEqual(offered.map(() => name !== "A1"));
        }

        const state = await readState(stateDir, sessionID);
        const stored = await messages(sessionID);
        const recallID =
          stored.find((message) => message.info.role === "user" && message.parts.some((part) => part.type === "text" && part.text === RECALL))?.info.id ?? "";
        const decision = state?.ledger.decisions[recallID];
        // The call was narrowed to t1: t2's request was not in what the model got before it asked.
        expect(decision, JSON.stringify(state?.ledger)).toMatchObject({ task: "t1", recalled: [{ task: "t2", exchanges: 1 }] });
        expect(decision?.confidence).toBeGreaterThanOrEqual(THRESHOLD);
        const [asked, answered] = turns.RECALL.map((request) => JSON.stringify((request.body as ChatRequestBody).messages));
        expect(asked).toContain(REQUESTS.A1.slice(0, 40));
        expect(asked).not.toContain(REQUESTS.B1.slice(0, 40));

        const calls = stored.flatMap((message) => message.parts).flatMap((part) => (part.type === "tool" && part.tool === "rcm_recall" ? [part.state] : []));
        expect(calls.map((call) => call.status)).toEqual(["completed"]);
        const output = calls[0]?.status === "completed" ? calls[0].output : "";
        expect(output).toContain("[t2 exchange 1 of 1]");
        expect(output).toContain(`User: ${REQUESTS.B1}`);
        // The model got it back in the next call of the turn.
        expect(answered).toContain("[t2 exchange 1 of 1]");
        // The switch lives only in the call it was made for: the stored requests carry none.
        for (const message of stored) if (message.info.role === "user") expect(message.info.tools?.rcm_recall, message.info.id).toBeUndefined();

        // A session that never opens a second task: the tool never shows, so its calls are what they were without it.
        const single = (await client.session.create({}, { throwOnError: true })).data.id;
        const oneTask = [...(await turn(single, REQUESTS.A1)), ...(await turn(single, REQUESTS.A2))];
        expect((await readState(stateDir, single))?.ledger.tasks).toHaveLength(1);
        expect(oneTask.length).toBeGreaterThan(3);
        for (const request of oneTask) expect(offeredTools(request)).not.toContain("rcm_recall");
        const toolLists = new Set(oneTask.map((request) => JSON.stringify((request.body as { tools?: unknown }).tools)));
        expect(toolLists.size).toBe(1);
        // Prefix caching (characters, OpenAI-style blocks): every call reuses all but the last block of the call before it.
        const texts = oneTask.map(serialised);
        const block = 128 * 4;
        const cached = simulatePrefixCache(texts, { minTokens: 1024 * 4, blockTokens: block });
        cached.slice(1).forEach((call, index) => {
          expect(call.cached, `call ${index + 1}`).toBeGreaterThanOrEqual((texts[index]?.length ?? 0) - 2 * block);
        });
      },
    );
  });
});
