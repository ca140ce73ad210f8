import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, messageText, type RecordedRequest, type Script } from "../../src/lab/scripted-model/index.js";
import { SessionStateSchema } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { makeTempDir } from "../support/temp-dir.js";

const PLUGIN = builtEntry("./server");

// Three tasks in one repository, in three different directories; the model really edits files.
const A1 = "Add textkit/slugify.py with a slugify(text) function that lowercases text and joins words with hyphens.";
const B1 = "The CSV exporter in exporters/csv_export.py must quote fields that contain commas; right now `export_rows` writes them raw.";
const C1 = "Write docs/usage.md describing the --output and --verbose command line options.";
const A2 = "Back to slugify: keep unicode letters instead of dropping them.";
const BOTH = "Both textkit/slugify.py and exporters/csv_export.py need a module docstring.";
const B2 = "Back to the CSV exporter: also quote fields that contain newlines.";

function threeTaskScript(repo: string): Script {
  const slugify = join(repo, "textkit", "slugify.py");
  const exporter = join(repo, "exporters", "csv_export.py");
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
                arguments: {
                  filePath: slugify,
                  content: "import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')\n",
                },
              },
            ],
          },
          { text: "Added slugify() in textkit/slugify.py." },
        ],
      },
      {
        id: "b1",
        when: B1,
        steps: [
          { toolCalls: [{ name: "bash", arguments: { command: "cat exporters/csv_export.py", description: "Read the exporter" } }] },
          { toolCalls: [{ name: "edit", arguments: { filePath: exporter, oldString: "','.join(row)", newString: "','.join(quote(cell) for cell in row)" } }] },
          { text: "export_rows now quotes fields with commas." },
        ],
      },
      {
        id: "c1",
        when: C1,
        steps: [
          { toolCalls: [{ name: "write", arguments: { filePath: join(repo, "docs", "usage.md"), content: "# Usage\n\n--output FILE\n--verbose\n" } }] },
          { text: "Wrote docs/usage.md." },
        ],
      },
      {
        id: "a2",
        when: A2,
        steps: [
          { toolCalls: [{ name: "edit", arguments: { filePath: slugify, oldString: "[^a-z0-9]+", newString: "[^\\\\w]+" } }] },
          { text: "slugify keeps unicode letters now." },
        ],
      },
      { id: "both", when: BOTH, steps: [{ text: "Both modules need a docstring; which first?" }] },
      { id: "b2", when: B2, steps: [{ text: "Newlines are quoted too." }] },
    ],
  };
}

const EXPORTER = "def quote(cell):\n    return cell\n\n\ndef export_rows(rows):\n    return '\\n'.join(','.join(row) for row in rows)\n";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-routing-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

/** The first model request of the turn that answers `text`: what the model saw when the request arrived. */
function firstRequestFor(requests: readonly RecordedRequest[], text: string): string {
  const found = requests.find((request) => {
    const messages = (request.body as ChatRequestBody).messages;
    const last = messages.findLast((message) => message.role === "user");
    return messageText(last?.content).includes(text);
  });
  if (!found) throw new Error(`no model request ends with ${JSON.stringify(text)}`);
  return JSON.stringify(found.body);
}

describe("the router inside the real OpenCode", () => {
  it("gives a resumed task only its own history, keeps everything when unsure, and resumes after a restart", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tools\n", "exporters/csv_export.py": EXPORTER });
    const runDir = join(temp.path, "router-run");
    const stateDir = join(temp.path, "router-state");
    const options = {
      runDir,
      directory: repo,
      script: threeTaskScript(repo),
      plugins: [[PLUGIN, { mode: "router", debug: true, stateDir }]] satisfies PluginEntry[],
    };
    const sessionID = await withScriptedOpencode(options, async ({ client, prompt }) => {
      const session = await client.session.create({}, { throwOnError: true });
      for (const text of [A1, B1, C1, A2, BOTH]) await prompt(session.data.id, text);
      return session.data.id;
    });
    // A second server on the same data: the ledger is read back and routing goes on.
    const serverOutput = await withScriptedOpencode(options, async ({ prompt, server }) => {
      await prompt(sessionID, B2);
      return server.output();
    });
    const requests = await readRequests(join(runDir, "model-requests.jsonl"));

    const resumed = firstRequestFor(requests, A2);
    expect(resumed).toContain(A1.slice(0, 40));
    expect(resumed).toContain("Added slugify()");
    for (const other of [B1, C1, "export_rows now quotes", "Wrote docs/usage.md", "--output FILE", "cat exporters/csv_export.py"]) {
      expect(resumed).not.toContain(other.slice(0, 40));
    }
    expect(resumed).toMatch(/task=t1 confidence=0\.\d+ kept=2\/4/);

    const unsure = firstRequestFor(requests, BOTH);
    for (const text of [A1, B1, C1, A2]) expect(unsure).toContain(text.slice(0, 40));
    expect(unsure).toMatch(/kept=5\/5 \(confidence 0\.\d+ below 0\.8\)/);

    const afterRestart = firstRequestFor(requests, B2);
    expect(afterRestart).toContain(B1.slice(0, 40));
    expect(afterRestart).toContain("export_rows now quotes");
    for (const other of [A1, C1, A2]) expect(afterRestart).not.toContain(other.slice(0, 40));
    expect(serverOutput).toContain("routed to t2");

    const state = SessionStateSchema.parse(JSON.parse(await readFile(sessionStatePath(stateDir, sessionID), "utf8")).data);
    expect(state.ledger.tasks.map((task) => task.id)).toEqual(["t1", "t2", "t3"]);
    expect(state.ledger.order).toHaveLength(6);
    expect(Object.values(state.ledger.decisions).map((entry) => entry.task)).toEqual(["t1", "t2", "t3", "t1", expect.any(String), "t2"]);
  });
});

async function readRequests(file: string): Promise<RecordedRequest[]> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RecordedRequest);
}
