import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepo } from "../../src/harness/git-repo.js";
import type { PluginEntry } from "../../src/harness/opencode-config.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { withScriptedOpencode } from "../../src/harness/scripted-session.js";
import type { RecordedRequest } from "../../src/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { fourTaskScript, REPO_FILES, REQUESTS } from "./support/four-tasks.js";

const PLUGIN = join(packageRoot(), "dist", "plugin", "index.js");
// Two requests of one task, then a second task, then a question the agent answers with rcm_tasks.
const TURNS = ["A1", "A2", "B1", "TASKS"] as const;

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

describe("rcm_tasks inside the real OpenCode", () => {
  it("is left out of every call while the session has one task, offered from the call that opens a second, and callable then; nothing of it is stored", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO_FILES);
    const plugin: PluginEntry = [PLUGIN, { mode: "full", stateDir: join(temp.path, "state") }];
    await withScriptedOpencode({ runDir: join(temp.path, "run"), directory: repo, script: fourTaskScript(repo), plugins: [plugin] }, async ({ client, model, prompt, messages }) => {
      const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
      const turns: Record<string, RecordedRequest[]> = {};
      let seen = 0;
      for (const turn of TURNS) {
        await prompt(sessionID, REQUESTS[turn]);
        const requests = await model.requests();
        turns[turn] = requests.slice(seen);
        seen = requests.length;
      }

      for (const turn of TURNS) {
        const offered = (turns[turn] ?? []).map(offeredTools);
        // Each turn made calls (one per tool step), and every call offered OpenCode's own tools.
        expect(offered.length, turn).toBeGreaterThan(1);
        for (const names of offered) expect(names, turn).toContain("bash");
        const withTasks = offered.map((names) => names.includes("rcm_tasks"));
        expect(withTasks, turn).toEqual(offered.map(() => turn === "B1" || turn === "TASKS"));
      }

      const stored = await messages(sessionID);
      const calls = stored.flatMap((message) => message.parts).flatMap((part) => (part.type === "tool" && part.tool === "rcm_tasks" ? [part.state] : []));
      expect(calls[0]?.status).toBe("completed");
      const list = calls[0]?.status === "completed" ? calls[0].output : "";
      expect(list).toMatch(/^t1 \[suspended\] /m);
      expect(list).toMatch(/^t2 \[current\] /m);
      // The switch lives only in the call it was made for: the stored requests carry none.
      for (const message of stored) if (message.info.role === "user") expect(message.info.tools?.["rcm_tasks"], message.info.id).toBeUndefined();
    });
  });
});
