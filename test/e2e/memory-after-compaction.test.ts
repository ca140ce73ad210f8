import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, isCompactionRequest, messageText, type Script } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { recordTextIn, waitForState } from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");

const A1 = "Add textkit/slugify.py with a slugify(text) function. It must lowercase the text and join words with hyphens.";
const B1 = "New task: write a CHANGELOG entry for the 0.2 release in CHANGELOG.md.";
const A2 = "Back to slugify: dump the word list in textkit/words.txt so I can check it.";
const CONTINUE = "Continue if you have next steps";
// A summarizer as lossy as the one that made native lose the focus task: only the latest request survives.
const LOSSY_SUMMARY = "## Summary\n- The user asked to dump the word list.";

function script(repo: string): Script {
  return {
    stages: [
      {
        id: "a1",
        when: A1,
        steps: [
          {
            toolCalls: [
              {
                name: "write",
                arguments: { filePath: join(repo, "textkit", "slugify.py"), content: "def slugify(text):\n    return '-'.join(text.lower().split())\n" },
              },
            ],
          },
          { text: "Added slugify()." },
        ],
      },
      { id: "b1", when: B1, steps: [{ text: "Wrote the CHANGELOG entry." }] },
      {
        id: "a2",
        when: A2,
        steps: [
          {
            toolCalls: [
              { name: "bash", arguments: { command: "python3 -c \"print('\\n'.join('word%05d' % i for i in range(3000)))\"", description: "Dump words" } },
            ],
          },
          { text: "That is the whole word list." },
        ],
      },
      { id: "continue", when: CONTINUE, steps: [{ text: "Nothing left to do." }] },
    ],
    summary: LOSSY_SUMMARY,
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-compaction-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("the record after a lossy compaction, in the real OpenCode", () => {
  it("reaches the continuation call that follows an automatic compaction, carrying the requirement the summary lost", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# textkit\n", "textkit/__init__.py": "" });
    const stateDir = join(temp.path, "state");
    const plugins: PluginEntry[] = [[PLUGIN, { mode: "memory", stateDir }]];
    // Default options: each task's record is written when its first turn ends; the compaction
    // brings every record up to date before the summary is written.
    const requests = await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: script(repo), plugins, contextLimit: 16_000 },
      async ({ client, prompt, model }) => {
        const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
        await prompt(sessionID, A1);
        await prompt(sessionID, B1);
        await prompt(sessionID, A2);
        const state = await waitForState(stateDir, sessionID, (s) => s.records.t1 !== undefined && s.records.t2 !== undefined, "both records");
        expect(state.memoryUpdates.every((update) => update.ok)).toBe(true);
        expect([...new Set(state.memoryUpdates.map((update) => update.task))].sort()).toEqual(["t1", "t2"]);
        return (await model.requests()).map((request) => request.body as ChatRequestBody);
      },
    );
    const lastUser = (body: ChatRequestBody) => messageText(body.messages.findLast((message) => message.role === "user")?.content);
    const compaction = requests.findIndex((body) => isCompactionRequest(lastUser(body)));
    expect(compaction).toBeGreaterThan(0);
    // What the summarizer read: t1's record in place of the exchange it covers (A1's write), not on top of it.
    const summarized = lastUser(requests[compaction] as ChatRequestBody);
    expect(summarized).toContain('<rcm-task-memory task="t1">');
    expect(summarized).not.toContain("return '-'.join(text.lower().split())");
    expect(summarized).toContain(A1);
    const continuations = requests.slice(compaction + 1).filter((body) => lastUser(body).startsWith(CONTINUE));
    expect(continuations.length).toBeGreaterThan(0);
    for (const body of continuations) {
      // The summary kept only the latest request; A1's requirement reaches the call through the record alone.
      const outsideRecord = body.messages.map((message) => messageText(message.content)).filter((text) => !text.includes("<rcm-task-memory"));
      expect(outsideRecord.join("\n")).toContain("The user asked to dump the word list.");
      expect(outsideRecord.join("\n")).not.toContain("join words with hyphens");
      const record = recordTextIn(body);
      expect(record).toBeDefined();
      expect(record).toContain("It must lowercase the text and join words with hyphens");
    }
  });
});
