import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { makeTempDir } from "../support/temp-dir.js";
import { answers } from "./support/everyday-session.js";
import { fourTaskScript, REPO_FILES, REQUESTS, waitForState } from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-first-turn-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("a memory record from the first finished turn, in the real OpenCode", () => {
  it("is written when the first turn ends, with default options; /rcm-text show gives it for a person and says no call carried it while all it covers was in view", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO_FILES);
    const stateDir = join(temp.path, "state");
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: fourTaskScript(repo), plugins: [[PLUGIN, { mode: "memory", stateDir }]] },
      async ({ client, prompt, messages }) => {
        const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
        await prompt(sessionID, REQUESTS.A1);
        const state = await waitForState(stateDir, sessionID, (s) => s.records.t1 !== undefined, "t1's record after one turn");
        expect(state.memoryUpdates.map((update) => [update.task, update.ok])).toEqual([["t1", true]]);
        await client.session.command({ sessionID, command: "rcm-text", arguments: "show t1" });
        const shown = answers(await messages(sessionID)).at(-1) ?? "";
        expect(shown).toMatch(/^\/rcm-text show t1\nMemory record of t1 ".*"\n/);
        expect(shown).toContain("Covers request 1 (every request of t1 so far); written by the extractive updater (no model).");
        expect(shown).toMatch(/Asked for, in force \(\d+\):\n {2}1\. .*\(#1\)/);
        expect(shown).toContain("It must lowercase the text and join words with hyphens");
        expect(shown).toContain("No model call has had this record yet");
        expect(shown).toContain("The text the model gets: /rcm-text show t1 model");
        // The person's view is not the model's text.
        expect(shown).not.toContain("<rcm-task-memory");
        expect(shown).not.toContain("left out of this conversation");

        // A follow-up of t1: its call keeps the two latest exchanges whole (the defaults), so the record is not sent, and every view says so.
        await prompt(sessionID, REQUESTS.A2);
        await client.session.command({ sessionID, command: "rcm-text", arguments: "show t1" });
        await client.session.command({ sessionID, command: "rcm-text", arguments: "status" });
        await client.session.command({ sessionID, command: "rcm-text", arguments: "show t1 model" });
        const [afterShow, status, model] = answers(await messages(sessionID)).slice(-3);
        expect(afterShow).toMatch(
          /The last call for t1 \(request 2, \d\d:\d\d\) did not carry (it|an earlier version of this record \(covering 1 exchange; this one covers 2\)): every exchange it covers was still in view\. No call has carried it yet\./,
        );
        expect(status).toContain(
          "The model sees the whole session: it has one task so far. The last call did not carry t1's memory record: every exchange it covers was still in view.",
        );
        expect(model).toMatch(/^\/rcm-text show t1 model\nThe text the model gets for t1's record, word for word/);
        expect(model).toContain('<rcm-task-memory task="t1">');
      },
    );
  });
});
