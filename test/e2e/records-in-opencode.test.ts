import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import type { Script } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { answers } from "./support/everyday-session.js";
import { waitForState } from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");

// Two tasks of a small web service, a request the router cannot place (it names both tasks'
// files), a pasted log, the user's move and a split: what each record holds, read as a person
// reads it (issue 47).
const SAY = {
  limiter: "New task: the rate limiter in src/limiter.js must cap its map of clients at 10000 keys.",
  escape: "Separate issue: escapeHtml in src/escape.js must escape double quotes as &quot; and single quotes as &#39;.",
  both: "Both src/limiter.js and src/escape.js need the MIT license header at the top.",
  log: "Back to the rate limiter in src/limiter.js, it crashed:\n    at check (src/limiter.js:3:9)\n    Node.js v20.11.1\nIt must also set a Retry-After header when it refuses a request.",
} as const;

const REPO = {
  "package.json": '{ "type": "module" }\n',
  "src/limiter.js": "const clients = new Map();\nexport function check(id) {\n  return clients.get(id) ?? true;\n}\n",
  "src/escape.js": "export function escapeHtml(text) {\n  return text.replace(/&/g, '&amp;');\n}\n",
  "test/limiter.test.js": "import { check } from '../src/limiter.js';\nimport assert from 'node:assert';\nassert.equal(check('a'), true);\n",
};

function script(repo: string): Script {
  const path = (file: string) => join(repo, file);
  const test = { toolCalls: [{ name: "bash", arguments: { command: "node --test test/", description: "Run the tests", workdir: repo } }] };
  return {
    stages: [
      {
        id: "limiter",
        when: SAY.limiter,
        steps: [
          {
            toolCalls: [
              {
                name: "edit",
                arguments: {
                  filePath: path("src/limiter.js"),
                  oldString: "const clients = new Map();",
                  newString: "const clients = new Map();\nconst MAX_CLIENTS = 10000;",
                },
              },
            ],
          },
          test,
          { text: "REPLY-LIMITER: the map is capped." },
        ],
      },
      {
        id: "escape",
        when: SAY.escape,
        steps: [
          {
            toolCalls: [
              {
                name: "edit",
                arguments: {
                  filePath: path("src/escape.js"),
                  oldString: "replace(/&/g, '&amp;')",
                  newString: "replace(/&/g, '&amp;').replace(/\"/g, '&quot;')",
                },
              },
            ],
          },
          { text: "REPLY-ESCAPE: double quotes escaped; single quotes next." },
        ],
      },
      { id: "both", when: SAY.both, steps: [{ text: "REPLY-BOTH: which license header text?" }] },
      {
        id: "log",
        when: SAY.log,
        steps: [
          { toolCalls: [{ name: "read", arguments: { filePath: path("src/limiter.js") } }] },
          {
            toolCalls: [
              {
                name: "edit",
                arguments: {
                  filePath: path("src/limiter.js"),
                  oldString: "return clients.get(id) ?? true;",
                  newString: "return clients.get(id) ?? true; // Retry-After",
                },
              },
            ],
          },
          { text: "REPLY-LOG: Retry-After set." },
        ],
      },
    ],
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-records-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("records a person can trust, in the real OpenCode", () => {
  it("holds each task's own settled asks, founding one first; lists an unsure request apart; pending in its states; files that are files; a split carries only settled requests", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO);
    const stateDir = join(temp.path, "state");
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: script(repo), plugins: [[PLUGIN, { mode: "memory", stateDir }]] },
      async ({ client, prompt, messages }) => {
        const sessionID = (await client.session.create({ title: "Web service" }, { throwOnError: true })).data.id;
        const say = async (text: string, done: (state: Awaited<ReturnType<typeof waitForState>>) => boolean, what: string) => {
          await prompt(sessionID, text);
          return waitForState(stateDir, sessionID, done, what);
        };
        const command = async (args: string): Promise<string> => {
          await client.session.command({ sessionID, command: "rcm-text", arguments: args });
          return answers(await messages(sessionID)).at(-1) ?? "";
        };
        await say(SAY.limiter, (state) => state.records.t1 !== undefined, "t1's record");
        await say(SAY.escape, (state) => state.records.t2 !== undefined, "t2's record");
        // Names both tasks' files: routed unsure, so its place is not settled.
        const unsure = await say(SAY.both, (state) => state.ledger.order.length === 3, "the third request routed");
        const guess = unsure.ledger.decisions[unsure.ledger.order[2] ?? ""];
        expect(guess?.confidence).toBeLessThan(0.8);
        await say(SAY.log, (state) => (state.records.t1?.coverage.groups.length ?? 0) >= 2, "t1's record covering the log request");

        const t1 = await command("show t1");
        const t2 = await command("show t2");
        const asks = (shown: string) => shown.slice(shown.indexOf("Asked for"), shown.indexOf("Pending"));
        // Founding asks first, each task's own, none of the other's and none of the unsure request's.
        expect(asks(t1)).toMatch(/1\. .*cap its map of clients at 10000 keys.*\(#1\)/);
        expect(asks(t1)).toMatch(/2\. It must also set a Retry-After header when it refuses a request {2}\(#4\)/);
        // The pasted log is no ask.
        expect(asks(t1)).not.toMatch(/at check|Node\.js v20/);
        expect(asks(t2)).toMatch(/1\. .*escape double quotes as &quot;.*\(#2\)/);
        for (const shown of [t1, t2]) expect(asks(shown)).not.toMatch(/license header|Retry-After.*&quot;|&quot;.*10000/);
        expect(asks(t1)).not.toContain("&quot;");
        expect(asks(t2)).not.toContain("10000");
        // The unsure request is listed apart, under the task it was guessed to.
        const guessed = guess?.task === "t1" ? t1 : t2;
        expect(guessed).toMatch(/Unsure, maybe t[12]'s: request 3 \(routed here as a guess/);
        // Pending: the cap was edited and a passing run followed (done); the escaping edit had no run (worked on).
        expect(t1).toMatch(/Progress[\s\S]*Ran `node --test test\/`: passed/);
        expect(t1).toMatch(/Pending \(1, [^\n]*\n {2}Worked on \(an edit, no passing test run since\):\n {4}ask 2 \(above\)/);
        expect(t2).toMatch(/Worked on \(an edit, no passing test run since\):\n {4}ask 1 \(above\)/);
        // Files are files, relative to the project: no "Node.js" from the pasted log, no absolute path.
        const files = t1.match(/^Files \(\d+\): (.*)$/m)?.[1] ?? "";
        expect(files.split(", ")).toContain("src/limiter.js");
        expect(files).not.toContain("Node.js");
        expect(files).not.toContain(repo);

        // A split carries only settled requests: the guessed task's seed has its own, not the unsure one.
        const guessedTask = guess?.task ?? "t1";
        const other = guessedTask === "t1" ? "t2" : "t1";
        const split = await command(`split ${guessedTask}`);
        const newID = split.match(/into session (ses_\w+)/)?.[1];
        if (!newID) throw new Error(`no split session in: ${split}`);
        expect(split).toMatch(/Not #3: unsure, maybe t[12]'s, left in this session/);
        const seed = (await messages(newID)).flatMap((message) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : []))).join("\n");
        expect(seed).toContain(guessedTask === "t1" ? SAY.limiter : SAY.escape);
        expect(seed).not.toContain(SAY.both);
        expect(seed).not.toContain(guessedTask === "t1" ? SAY.escape : SAY.limiter);

        // The user files the unsure request under the other task: their word settles it, and its record takes it.
        expect(await command(`move 3 ${other}`)).toMatch(new RegExp(`Moved request 3 from ${guessedTask} to ${other}`));
        const third = unsure.ledger.order[2] ?? "";
        await waitForState(stateDir, sessionID, (state) => state.records[other]?.coverage.groups.includes(third) === true, "the moved request in its record");
        const after = await command(`show ${other}`);
        expect(asks(after)).toContain("license header");
        expect(after).not.toContain("Unsure, maybe");
      },
    );
  });
});
