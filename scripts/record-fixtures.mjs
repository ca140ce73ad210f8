// Records real OpenCode message histories for the unit tests: each scenario drives the
// real binary (pinned opencode-ai) against the scripted model and saves what
// `client.session.messages` returns. Run with `npm run record-fixtures` after `npm run build`.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { builtEntry, packageRoot } from "../dist/kit/package-root.js";
import { createGitRepo } from "../dist/lab/harness/git-repo.js";
import { withScriptedOpencode } from "../dist/lab/harness/scripted-session.js";
import { parseScript, ScriptedModelError, selectReply } from "../dist/lab/scripted-model/index.js";

const ROOT = "/tmp/opencode-rcm-fixtures";
const OUT = join(packageRoot(), "fixtures", "sessions");
const PLUGIN = builtEntry("./server");
const RECORDER = join(packageRoot(), "scripts", "transform-recorder-plugin.mjs");

const REPO_FILES = {
  "README.md": "# textkit\n\nSmall text helpers.\n",
  "textkit/__init__.py": "",
  "textkit/wrap.py": "def wrap(text, width):\n    return [text[i:i + width] for i in range(0, len(text), width)]\n",
  "tests/test_wrap.py": "from textkit.wrap import wrap\n\n\ndef test_wrap():\n    assert wrap('abcd', 2) == ['ab', 'cd']\n",
};

function scriptFor(repo) {
  const file = (path) => join(repo, path);
  return parseScript(
    {
      stages: [
        {
          id: "slugify-1",
          when: "slugify(text) function",
          steps: [
            {
              text: "I'll add the module.",
              toolCalls: [
                {
                  name: "write",
                  arguments: {
                    filePath: file("textkit/slugify.py"),
                    content: "import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')\n",
                  },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: "bash",
                  arguments: { command: "python3 -c \"from textkit.slugify import slugify; print(slugify('Hello World'))\"", description: "Try slugify" },
                },
              ],
            },
            { text: "slugify('Hello World') gives hello-world." },
          ],
        },
        {
          id: "changelog",
          when: "CHANGELOG entry",
          steps: [
            {
              toolCalls: [
                {
                  name: "write",
                  arguments: { filePath: file("CHANGELOG.md"), content: "# Changelog\n\n## 0.2\n- wrap(): split text into fixed-width lines\n" },
                },
              ],
            },
            { text: "Added CHANGELOG.md with the 0.2 entry." },
          ],
        },
        {
          id: "slugify-2",
          when: "Back to slugify",
          steps: [
            {
              text: "Let me update the pattern.",
              toolCalls: [{ name: "edit", arguments: { filePath: file("textkit/slugify.py"), oldString: "[^a-z]+", newString: "[^\\w]+" } }],
            },
            { toolCalls: [{ name: "edit", arguments: { filePath: file("textkit/slugify.py"), oldString: "[^a-z0-9]+", newString: "[^\\w]+" } }] },
            {
              toolCalls: [
                {
                  name: "bash",
                  arguments: { command: "python3 -c \"from textkit.slugify import slugify; print(slugify('Crème brûlée'))\"", description: "Try unicode" },
                },
              ],
            },
            { text: "Unicode letters are kept now: crème-brûlée." },
          ],
        },
        {
          id: "slow",
          when: "full slow suite",
          steps: [{ toolCalls: [{ name: "bash", arguments: { command: "sleep 60", description: "Run slow suite" } }] }, { text: "Finished." }],
        },
        {
          id: "big-output",
          when: "Dump the word list",
          steps: [
            {
              toolCalls: [
                { name: "bash", arguments: { command: "python3 -c \"print('\\n'.join('word%05d' % i for i in range(3000)))\"", description: "Dump words" } },
              ],
            },
            { text: "That is the whole word list." },
          ],
        },
        {
          id: "delegate",
          when: "Use a subagent",
          steps: [
            {
              toolCalls: [
                {
                  name: "task",
                  arguments: { description: "Find wrap callers", prompt: "List every caller of wrap( in the repository.", subagent_type: "general" },
                },
              ],
            },
            { text: "The subagent found one caller, in tests/test_wrap.py." },
          ],
        },
        {
          id: "child",
          when: "List every caller of wrap(",
          steps: [
            { toolCalls: [{ name: "bash", arguments: { command: "grep -rn 'wrap(' --include=*.py .", description: "Find wrap callers" } }] },
            { text: "One caller: tests/test_wrap.py." },
          ],
        },
      ],
      summary:
        "## Goal\n- Task A: slugify in textkit/slugify.py\n- Task B: CHANGELOG entry for 0.2\n\n## Progress\n- textkit/slugify.py written; CHANGELOG.md written",
      fallback: { text: "Summary: we added textkit/slugify.py (slugify keeps unicode letters) and a CHANGELOG entry for 0.2." },
    },
    "record-fixtures script",
  );
}

// The requests shared by several scenarios; each names a stage of the script above.
const TASK_A = "Task A: add textkit/slugify.py with a slugify(text) function that lowercases and joins words with dashes.";
const TASK_B = "Task B: write a CHANGELOG entry for the 0.2 release.";
const BACK_TO_A = "Back to slugify: keep unicode letters instead of dropping them.";

const scenarios = [
  {
    name: "two-tasks-with-tool-error",
    description: "Two interleaved tasks in one repo; write, bash, a failing edit then a good one.",
    async drive({ prompt }, sessionID) {
      await prompt(sessionID, TASK_A);
      await prompt(sessionID, TASK_B);
      await prompt(sessionID, BACK_TO_A);
    },
  },
  {
    name: "compaction",
    description: "Two requests, a manual compaction (/compact), then a third request on the shorter history.",
    async drive({ prompt, client }, sessionID) {
      await prompt(sessionID, TASK_A);
      await prompt(sessionID, TASK_B);
      await client.session.summarize({ sessionID, providerID: "scripted", modelID: "scripted", auto: false }, { throwOnError: true });
      await prompt(sessionID, BACK_TO_A);
    },
  },
  {
    name: "auto-compaction",
    description: "A small context limit: a large tool output makes OpenCode compact on its own and continue with a synthetic message.",
    contextLimit: 16000,
    async drive({ prompt }, sessionID) {
      await prompt(sessionID, TASK_A);
      await prompt(sessionID, "Dump the word list so I can check it.");
      await prompt(sessionID, BACK_TO_A);
    },
  },
  {
    name: "aborted",
    description: "A request aborted while its bash call runs, then a follow-up request.",
    async drive({ prompt, client, messages }, sessionID) {
      await client.session.promptAsync({ sessionID, parts: [{ type: "text", text: "Run the full slow suite." }] }, { throwOnError: true });
      for (let i = 0; i < 200; i++) {
        const history = await messages(sessionID);
        const running = history.some((m) => m.parts.some((p) => p.type === "tool" && p.state.status === "running"));
        if (running) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await client.session.abort({ sessionID }, { throwOnError: true });
      await waitIdle(messages, sessionID);
      await prompt(sessionID, "Skip the slow tests; what files are in textkit?");
    },
  },
  {
    name: "provider-error",
    description: "A request whose model call fails with HTTP 400, then a request that succeeds.",
    async drive({ prompt }, sessionID) {
      await prompt(sessionID, "Check the provider failure path.");
      await prompt(sessionID, TASK_B);
    },
  },
  {
    name: "subagent",
    description: "A request that starts a sub-agent (task tool); the child session is recorded too.",
    async drive({ prompt }, sessionID) {
      await prompt(sessionID, "Use a subagent to find every caller of wrap.");
    },
  },
];

async function waitIdle(messages, sessionID) {
  for (let i = 0; i < 200; i++) {
    const history = await messages(sessionID);
    const last = history.at(-1);
    if (last && last.info.role === "assistant" && last.info.time.completed) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

await mkdir(OUT, { recursive: true });
const only = process.argv.slice(2);
for (const scenario of scenarios) {
  if (only.length > 0 && !only.includes(scenario.name)) continue;
  const dir = join(ROOT, scenario.name);
  await rm(dir, { recursive: true, force: true });
  const repo = join(dir, "repo");
  await createGitRepo(repo, REPO_FILES);
  const script = scriptFor(repo);
  const responder = ({ body }) => {
    const last = body.messages.findLast((m) => m.role === "user");
    if (JSON.stringify(last?.content ?? "").includes("provider failure")) {
      throw new ScriptedModelError(400, "scripted failure: the provider rejected this request");
    }
    return selectReply({ script, body }).reply;
  };
  const transformsFile = join(dir, "transforms.jsonl");
  const started = Date.now();
  const sessions = await withScriptedOpencode(
    {
      runDir: join(dir, "run"),
      directory: repo,
      script: responder,
      plugins: [RECORDER, [PLUGIN, { mode: "native" }]],
      env: { RCM_RECORD_TRANSFORMS: transformsFile },
      ...(scenario.contextLimit ? { contextLimit: scenario.contextLimit } : {}),
    },
    async (context) => {
      const created = await context.client.session.create({}, { throwOnError: true });
      const sessionID = created.data.id;
      await scenario.drive(context, sessionID);
      const main = await context.messages(sessionID);
      const children = await context.client.session.children({ sessionID }, { throwOnError: true });
      const recorded = { main };
      for (const [i, child] of children.data.entries()) recorded[`child${i + 1}`] = await context.messages(child.id);
      return recorded;
    },
  );
  // What the transform hook saw at each model call of the main session (cut at compaction).
  const mainID = sessions.main[0]?.info.sessionID;
  const transformCalls = (await readFile(transformsFile, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((messages) => messages[0]?.info.sessionID === mainID);
  const fixture = { recordedWith: "opencode-ai 1.18.33", scenario: scenario.name, description: scenario.description, sessions, transformCalls };
  await writeFile(join(OUT, `${scenario.name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(
    `${scenario.name}: ${Object.entries(sessions)
      .map(([k, v]) => `${k}=${v.length} messages`)
      .join(", ")} (${Date.now() - started} ms)`,
  );
}
