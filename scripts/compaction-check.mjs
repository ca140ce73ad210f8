// Does the plug-in make OpenCode compact more often, or loop? One interleaved four-task
// session whose tool outputs are large, at a small context window, without the plug-in and
// with it in modes memory and full; counts compaction calls and whether every request
// finished. Build first: node scripts/compaction-check.mjs [--context 12000] [--timeout-s 120]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { builtEntry } from "../dist/kit/package-root.js";
import { createGitRepo } from "../dist/lab/harness/git-repo.js";
import { withScriptedOpencode } from "../dist/lab/harness/scripted-session.js";
import { isCompactionRequest, messageText } from "../dist/lab/scripted-model/index.js";

const { values } = parseArgs({
  options: { context: { type: "string", default: "12000" }, output: { type: "string", default: "1000" }, "timeout-s": { type: "string", default: "120" } },
});
const CONTEXT = Number(values.context);
const TIMEOUT_MS = Number(values["timeout-s"]) * 1000;
const PLUGIN = builtEntry("./server");
const TASKS = ["alpha", "beta", "gamma", "delta"];
const ASKS = [];
for (let round = 0; round < 3; round += 1) {
  for (const task of TASKS)
    ASKS.push(
      `${round === 0 ? "New task" : `Back to ${task}`}: in src/${task}.py the ${task} helper must keep rule ${round + 1} (${task}-${round}); dump src/${task}.txt so I can check it.`,
    );
}
function script(repo) {
  return {
    stages: ASKS.map((text, index) => ({
      id: `s${index}`,
      when: text,
      steps: [
        {
          toolCalls: [
            { name: "bash", arguments: { command: `python3 -c "print('\\n'.join('line%05d of ${index}' % i for i in range(400)))"`, description: "Dump" } },
          ],
        },
        { toolCalls: [{ name: "write", arguments: { filePath: join(repo, `src/f${index}.py`), content: `# ${text}\n` } }] },
        { text: `Done ${index}.` },
      ],
    })),
    fallback: { text: "Nothing left." },
    summary: "## Summary\n- Work on the latest request.",
  };
}

async function run(label, plugins) {
  const dir = await mkdtemp(join(tmpdir(), `rcm-compaction-${label}-`));
  try {
    const repo = join(dir, "repo");
    await createGitRepo(repo, { "README.md": "# x\n", "src/__init__.py": "" });
    return await withScriptedOpencode(
      { runDir: join(dir, "run"), directory: repo, script: script(repo), plugins, contextLimit: CONTEXT, outputLimit: Number(values.output) },
      async ({ client, model }) => {
        const id = (await client.session.create({}, { throwOnError: true })).data.id;
        let finished = 0;
        for (const text of ASKS) {
          const timer = new Promise((resolve) => setTimeout(() => resolve("timeout"), TIMEOUT_MS));
          const outcome = await Promise.race([client.session.prompt({ sessionID: id, parts: [{ type: "text", text }] }).then(() => "done"), timer]);
          if (outcome === "timeout") {
            await client.session.abort({ sessionID: id });
            break;
          }
          finished += 1;
        }
        const requests = await model.requests();
        const lastUser = (/** @type {{ messages: Array<{ role: string; content?: unknown }> }} */ body) =>
          body.messages.findLast((message) => message.role === "user")?.content;
        const compactions = requests.filter((request) => isCompactionRequest(messageText(lastUser(/** @type {any} */ (request.body))))).length;
        return { finished, compactions, calls: requests.length };
      },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`context ${CONTEXT} tokens, ${ASKS.length} requests`);
/** @type {Array<[string, Array<[string, { mode: string }]>]>} */
const VARIANTS = [
  ["no plug-in", []],
  ["memory", [[PLUGIN, { mode: "memory" }]]],
  ["full", [[PLUGIN, { mode: "full" }]]],
];
for (const [label, plugins] of VARIANTS) {
  const result = await run(label.replace(/\W/g, ""), plugins);
  console.log(`${label.padEnd(10)} finished ${result.finished}/${ASKS.length} requests, ${result.compactions} compactions, ${result.calls} model calls`);
}
