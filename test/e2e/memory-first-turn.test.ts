import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepo } from "../../src/harness/git-repo.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { withScriptedOpencode } from "../../src/harness/scripted-session.js";
import { makeTempDir } from "../support/temp-dir.js";
import { answers } from "./support/everyday-session.js";
import { fourTaskScript, REPO_FILES, REQUESTS, waitForState } from "./support/four-tasks.js";

const PLUGIN = join(packageRoot(), "dist", "plugin", "index.js");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-first-turn-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("a memory record from the first finished turn, in the real OpenCode", () => {
  it("is written when the first turn ends, with default options, and /rcm-text show answers with it", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO_FILES);
    const stateDir = join(temp.path, "state");
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: fourTaskScript(repo), plugins: [[PLUGIN, { mode: "memory", stateDir }]] },
      async ({ client, prompt, messages }) => {
        const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
        await prompt(sessionID, REQUESTS.A1);
        const state = await waitForState(stateDir, sessionID, (s) => s.records["t1"] !== undefined, "t1's record after one turn");
        expect(state.memoryUpdates.map((update) => [update.task, update.ok])).toEqual([["t1", true]]);
        await client.session.command({ sessionID, command: "rcm-text", arguments: "show t1" });
        const shown = answers(await messages(sessionID)).at(-1) ?? "";
        expect(shown).toMatch(/^\/rcm-text show t1\n/);
        expect(shown).toContain("It must lowercase the text and join words with hyphens");
        expect(shown).not.toContain("No memory record yet");
      },
    );
  });
});
