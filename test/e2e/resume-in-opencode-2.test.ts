import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { type Opencode2Server, opencode2Config, openSession, startOpencode2Server } from "../../src/lab/harness/opencode-2-server.js";
import { type ChatRequestBody, type ScriptedModel, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { readSessionState } from "../../src/plugin/store/read-session-state.js";
import { makeTempDir } from "../support/temp-dir.js";
import { isTitleRequest, opencode2Responder, userTexts } from "./support/opencode-2.js";

// Issue 50 on the real OpenCode 2.0.15: a task of an ended session resumed in a new one, its
// record in the new session's first model call and nothing of the other task.
const RETRY = "Task one: in src/webhook.py add send_with_retry that retries a failed webhook POST three times with exponential backoff";
const REPORT = "Separate task: in src/report.py add monthly_totals that sums invoice amounts per month";
const BACK = "Back to send_with_retry in src/webhook.py: cap the delay between attempts at 30 seconds";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let model: ScriptedModel;
let server: Opencode2Server;
let repo: string;
let stateDir: string;

beforeAll(async () => {
  temp = await makeTempDir("rcm-v2-resume");
  repo = join(temp.path, "repo");
  stateDir = join(temp.path, "state");
  await createGitRepo(repo, { "README.md": "# tool\n", "src/__init__.py": "" });
  const write = (file: string) => ({ toolCalls: [{ name: "write", arguments: { path: join(repo, file), content: "# work\n" } }] });
  const script = {
    stages: [
      { id: "retry", when: RETRY, steps: [write("src/webhook.py"), { text: "Added send_with_retry." }] },
      { id: "report", when: REPORT, steps: [write("src/report.py"), { text: "Added monthly_totals." }] },
      { id: "back", when: BACK, steps: [{ text: "Capped the delay." }] },
    ],
    fallback: { text: "Done." },
  };
  model = await startScriptedModel({ script: opencode2Responder(script), logFile: join(temp.path, "model-requests.jsonl") });
  const config = opencode2Config({ modelBaseURL: model.url, plugins: [{ package: packageRoot(), options: { mode: "full", stateDir } }] });
  server = await startOpencode2Server({ root: join(temp.path, "home"), cwd: repo, config });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await model?.close();
  await temp?.remove();
});

describe("a task resumed in a new session of the real OpenCode 2.0.15 (issue 50)", () => {
  it("brings its record into the new session's first model call, and nothing of the other task", async () => {
    const a = await openSession(server, repo);
    await a.prompt(RETRY);
    await a.prompt(REPORT);
    // Session A's records are written after its turns, in the background.
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const read = await readSessionState(stateDir, a.id);
      if (read.status === "loaded" && read.state.records.t1 && read.state.records.t2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const b = await openSession(server, repo);
    await b.prompt(BACK);
    const requests = (await model.requests()).filter((request) => !isTitleRequest(request.body as ChatRequestBody));
    const first = requests.find((request) => userTexts(request.body).some((text) => text.includes(BACK)));
    const texts = userTexts(first?.body).join("\n");
    expect(texts).toContain("goes on from an earlier session");
    expect(texts).toContain("exponential backoff");
    expect(texts).not.toMatch(/monthly_totals|report\.py/);
    const state = await readSessionState(stateDir, b.id);
    expect(state.status === "loaded" && state.state.ledger.tasks[0]?.resumed).toMatchObject({ session: a.id, task: "t1", by: "router" });
  }, 120_000);
});
