import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, isCompactionRequest, messageText, type RecordedRequest } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { fourTaskScript, REPO_FILES, REQUESTS } from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");
// One task, a second one, a return to the first whose big tool output makes OpenCode compact, then
// a question the agent answers with rcm_tasks.
const TURNS = ["A1", "B1", "A2", "TASKS"] as const;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-tasks-tool-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

/** The tool names a chat request offered the model. */
function offeredTools(request: RecordedRequest): string[] {
  const tools = (request.body as { tools?: { function?: { name?: string } }[] }).tools ?? [];
  return tools.map((tool) => tool.function?.name ?? "");
}

const isCompaction = (request: RecordedRequest) =>
  isCompactionRequest(messageText((request.body as ChatRequestBody).messages.findLast((message) => message.role === "user")?.content));

describe("rcm_tasks inside the real OpenCode", () => {
  it("is left out of every call until a compaction is in view (routing hides nothing rcm_recall cannot fetch, and the tool list stays the router's), offered from then on and callable; nothing of it is stored", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO_FILES);
    const plugin: PluginEntry = [PLUGIN, { mode: "full", stateDir: join(temp.path, "state") }];
    const script = fourTaskScript(repo, { bigOutputIn: "A2" });
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script, plugins: [plugin], contextLimit: 16_000 },
      async ({ client, model, prompt, messages }) => {
        const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
        const turns: Record<string, RecordedRequest[]> = {};
        let seen = 0;
        for (const turn of TURNS) {
          await prompt(sessionID, REQUESTS[turn]);
          const requests = await model.requests();
          turns[turn] = requests.slice(seen);
          seen = requests.length;
        }

        // A2's big output made OpenCode compact in the middle of its turn.
        const a2 = turns.A2 ?? [];
        const compaction = a2.findIndex(isCompaction);
        expect(compaction).toBeGreaterThan(0);
        for (const turn of TURNS) {
          const calls = (turns[turn] ?? []).filter((request) => !isCompaction(request));
          // Each turn made calls (one per tool step), and every call offered OpenCode's own tools.
          expect(calls.length, turn).toBeGreaterThan(1);
          for (const names of calls.map(offeredTools)) expect(names, turn).toContain("bash");
          // rcm_recall, as in mode router, from the call that opened the second task.
          expect(
            calls.map((request) => offeredTools(request).includes("rcm_recall")),
            turn,
          ).toEqual(calls.map(() => turn !== "A1"));
        }
        const withTasks = (requests: readonly RecordedRequest[]) =>
          requests.filter((request) => !isCompaction(request)).map((request) => offeredTools(request).includes("rcm_tasks"));
        for (const turn of ["A1", "B1"] as const) expect(withTasks(turns[turn] ?? []), turn).toEqual((turns[turn] ?? []).map(() => false));
        expect(withTasks(a2.slice(0, compaction)).every((offered) => !offered)).toBe(true);
        const afterCompaction = withTasks(a2.slice(compaction + 1));
        expect(afterCompaction.length).toBeGreaterThan(0);
        expect(afterCompaction.every((offered) => offered)).toBe(true);
        expect(withTasks(turns.TASKS ?? []).every((offered) => offered)).toBe(true);

        const stored = await messages(sessionID);
        const calls = stored.flatMap((message) => message.parts).flatMap((part) => (part.type === "tool" && part.tool === "rcm_tasks" ? [part.state] : []));
        expect(calls[0]?.status).toBe("completed");
        const list = calls[0]?.status === "completed" ? calls[0].output : "";
        expect(list).toMatch(/^t1 \[(current|suspended)\] /m);
        expect(list).toMatch(/^t2 \[(current|suspended)\] /m);
        // The switch lives only in the call it was made for: the stored requests carry none.
        for (const message of stored) if (message.info.role === "user") expect(message.info.tools?.rcm_tasks, message.info.id).toBeUndefined();
      },
    );
  });
});
