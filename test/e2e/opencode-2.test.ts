import { execFile } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import {
  type Opencode2Server,
  type Opencode2Session,
  opencode2Config,
  openSession,
  sessionOf,
  startOpencode2Server,
} from "../../src/lab/harness/opencode-2-server.js";
import { type ChatRequestBody, messageText, type RecordedRequest, type ScriptedModel, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { readSessionState } from "../../src/plugin/store/read-session-state.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { makeTempDir } from "../support/temp-dir.js";
import { isCompactionCall, isTitleRequest, opencode2Responder, userTexts } from "./support/opencode-2.js";

// The plug-in in the real OpenCode 2.0.15 (the pinned @opencode/cli-linux-x64-baseline), loaded
// from the package directory as a V2 user's `plugins` entry names it, against the scripted model.
// One server serves every test but the last, which restarts it on the same data.

const A1 = "Add textkit/slugify.py with a slugify(text) function that lowercases text and joins words with hyphens.";
const B1 = "The CSV exporter in exporters/csv_export.py must quote fields that contain commas; right now `export_rows` writes them raw.";
const A2 = "Back to slugify in textkit/slugify.py: keep unicode letters instead of dropping them.";
const TOOLS = "Back to slugify in textkit/slugify.py: first list the tasks of this session and recall what was done in task t2.";
const X1 = "Rename the helper in notes/todo.md to something clearer.";
const X2 = "Add a line about the release date to notes/todo.md.";
const X3 = "One more line in notes/todo.md: thank the testers.";

const run = promisify(execFile);

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let repo: string;
let stateDir: string;
let model: ScriptedModel;
let server: Opencode2Server;
let config: Record<string, unknown>;
let main: Opencode2Session;
let other: Opencode2Session;

/** The model requests of a session's turns: OpenCode 2's title calls left out. */
async function turnRequests(): Promise<RecordedRequest[]> {
  return (await model.requests()).filter((request) => !isTitleRequest(request.body as ChatRequestBody));
}

/** `probe`'s value once it has one (polled), or an error after `timeoutMs`. */
async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stateOf(sessionID: string) {
  const read = await readSessionState(stateDir, sessionID);
  if (read.status !== "loaded") throw new Error(`no state for ${sessionID}: ${JSON.stringify(read)}`);
  return read.state;
}

function lastUserText(request: RecordedRequest | undefined): string {
  return userTexts(request?.body).at(-1) ?? "";
}

beforeAll(async () => {
  temp = await makeTempDir("rcm-v2");
  repo = join(temp.path, "repo");
  stateDir = join(temp.path, "state");
  await createGitRepo(repo, {
    "textkit/slugify.py": "def slugify(text):\n    return text\n",
    "exporters/csv_export.py": "def export_rows(rows):\n    return rows\n",
    "notes/todo.md": "- helper\n",
  });
  const script = {
    stages: [
      {
        id: "a1",
        when: A1,
        steps: [
          {
            toolCalls: [
              { name: "write", arguments: { path: join(repo, "textkit/slugify.py"), content: "import re\n\ndef slugify(text):\n    return text.lower()\n" } },
            ],
          },
          { text: "Added slugify() in textkit/slugify.py." },
        ],
      },
      {
        id: "b1",
        when: B1,
        steps: [
          {
            toolCalls: [
              {
                name: "edit",
                arguments: { path: join(repo, "exporters/csv_export.py"), oldString: "return rows", newString: "return [quote(row) for row in rows]" },
              },
            ],
          },
          { text: "export_rows quotes fields with commas now." },
        ],
      },
      { id: "a2", when: A2, steps: [{ text: "slugify keeps unicode letters now." }] },
      {
        id: "tools",
        when: TOOLS,
        steps: [
          {
            toolCalls: [
              { name: "rcm_tasks", arguments: { action: "list" } },
              { name: "rcm_recall", arguments: { task: "t2" } },
            ],
          },
          { text: "Both tools answered." },
        ],
      },
    ],
    fallback: { text: "Done." },
  };
  model = await startScriptedModel({ script: opencode2Responder(script), logFile: join(temp.path, "model-requests.jsonl") });
  config = opencode2Config({ modelBaseURL: model.url, plugins: [{ package: packageRoot(), options: { mode: "full", router: "lexical", stateDir } }] });
  server = await startOpencode2Server({ root: join(temp.path, "home"), cwd: repo, config });
  main = await openSession(server, repo);
  other = await openSession(server, repo);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await model?.close();
  await temp?.remove();
});

describe("opencode-rcm in the real OpenCode 2.0.15", () => {
  it("loads from the package directory: GET /api/plugin lists it active", async () => {
    await main.prompt(A1);
    const listed = await server.api<{ data: Array<{ id: string; source: { type: string; path?: string }; state: { status: string } }> }>(
      "GET",
      `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(repo)}`,
    );
    const ours = listed.data.find((plugin) => plugin.id === "opencode-rcm");
    expect(ours).toMatchObject({ source: { type: "local", path: join(packageRoot(), "server.js") }, state: { status: "active" } });
    expect(server.output()).toContain("opencode-rcm info loaded in full mode with the lexical router");
  }, 60_000);

  it("narrows the request of a return to its task: the model gets the task's earlier request, not the other task's", async () => {
    await main.prompt(B1);
    await main.prompt(A2);
    const requests = await turnRequests();
    const atReturn = requests.filter((request) => lastUserText(request) === A2);
    expect(atReturn).toHaveLength(1);
    const texts = userTexts(atReturn[0]?.body);
    expect(texts).toEqual([A1, A2]);
    expect(JSON.stringify(atReturn[0]?.body)).not.toContain("CSV exporter");
    // The request before it, in the other task, carried the whole history (routing opened t2, narrowing hid nothing it needed).
    const atB1 = requests.filter((request) => lastUserText(request) === B1);
    expect(userTexts(atB1[0]?.body)).toEqual([A1, B1]);
    const state = await stateOf(main.id);
    expect(state.ledger.tasks.map((task) => task.id)).toEqual(["t1", "t2"]);
    // Each task's first record is written when its first turn ends (OpenCode 2's session.execution.succeeded).
    const recorded = await until(async () => {
      const { records } = await stateOf(main.id);
      return records["t1"] && records["t2"] ? records : undefined;
    });
    expect(recorded["t2"]?.coverage.groups).toHaveLength(1);
  }, 60_000);

  it("answers each /rcm-text verb (and /rcm) in the session with no model request, and keeps the answers from the model", async () => {
    const before = (await model.requests()).length;
    const verbs = ["status", "why", "tasks", "show t1", "show t2 model", "help", "off", "on"];
    for (const verb of verbs) await main.command("rcm-text", verb);
    await main.command("rcm", "tasks");
    // OpenCode 2.0.15 admits each answer to the session's inbox at once (no model turn starts);
    // the next turn delivers them into the transcript.
    const answers = await until(async () => {
      const inbox = await server.api<{ data: Array<{ type: string; payload?: { text?: string } }> }>("GET", `/api/session/${main.id}/inbox`);
      const texts = inbox.data.filter((item) => item.type === "synthetic").map((item) => item.payload?.text ?? "");
      return texts.length === verbs.length + 1 ? texts : undefined;
    });
    expect((await model.requests()).length).toBe(before);
    expect(answers.map((answer) => answer.split("\n")[0])).toEqual([
      ...verbs.map((verb) => `opencode-rcm answers /rcm-text ${verb}`),
      "opencode-rcm answers /rcm tasks",
    ]);
    expect(answers[0]).toContain("opencode-rcm is on: mode full, lexical router");
    expect(answers[2]).toMatch(/t1 .*\n.*t2 /);
    expect(answers[6]).toContain("opencode-rcm is off for this session");
    // A request after the answers: none of them reaches the model.
    await main.prompt("Back to slugify in textkit/slugify.py: does it still lowercase?");
    const after = (await turnRequests()).at(-1);
    expect(lastUserText(after)).toContain("does it still lowercase");
    expect(JSON.stringify(after?.body)).not.toContain("opencode-rcm answers");
    const delivered = (await main.messages()).filter((message) => message.type === "synthetic").map((message) => String(message["text"]));
    expect(delivered).toEqual(answers);
  }, 60_000);

  it("compacts with every task's record in what is summarized, and keeps both records", async () => {
    await main.compact();
    const compaction = (await turnRequests()).filter((request) => isCompactionCall(request.body as ChatRequestBody));
    expect(compaction.length).toBeGreaterThanOrEqual(1);
    const sent = JSON.stringify(compaction[0]?.body);
    expect(sent).toContain('<rcm-task-memory task=\\"t1\\">');
    expect(sent).toContain('<rcm-task-memory task=\\"t2\\">');
    expect(sent).toContain("keep for EVERY task");
    const stored = await main.messages();
    expect(stored.filter((message) => message.type === "compaction").map((message) => message["status"] ?? "recorded")).not.toContain("failed");
    const state = await stateOf(main.id);
    expect(Object.keys(state.records).sort()).toEqual(["t1", "t2"]);
    expect(server.output()).toContain("compaction: the records of t1, t2 in place of the exchanges they cover");
  }, 60_000);

  it("leaves its state where the shell's opencode-rcm reads it", async () => {
    const { stdout } = await run(process.execPath, [join(packageRoot(), "dist", "cli.js"), "status", main.id, `--dir=${repo}`, `--state-dir=${stateDir}`]);
    expect(stdout).toContain("opencode-rcm is on: mode full, lexical router");
    expect(stdout).toMatch(/t1 .*\n.*t2 /);
  }, 30_000);

  it("offers rcm_tasks and rcm_recall as top-level tools and answers them", async () => {
    await main.prompt(TOOLS);
    const requests = (await turnRequests()).filter((request) => userTexts(request.body).includes(TOOLS));
    const offered = (requests[0]?.body ?? {}) as { tools?: Array<{ function: { name: string } }> };
    const names = (offered.tools ?? []).map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(["rcm_tasks", "rcm_recall"]));
    const answered = requests.at(-1)?.body as ChatRequestBody;
    const results = answered.messages.filter((message) => message.role === "tool").map((message) => JSON.stringify(message.content));
    expect(results.some((text) => text.includes("t1") && text.includes("t2") && text.includes("CSV exporter"))).toBe(true);
    expect(results.some((text) => text.includes("export_rows quotes fields with commas now"))).toBe(true);
  }, 60_000);

  it("goes on with the native history when a session's state file is corrupt, and logs the problem", async () => {
    await other.prompt(X1);
    await other.prompt(X2);
    // The state is read once per server: restart it on the same data with the file corrupted.
    await server.close();
    const file = sessionStatePath(stateDir, other.id);
    await writeFile(file, "{ this is not JSON");
    server = await startOpencode2Server({ root: join(temp.path, "home"), cwd: repo, config });
    other = sessionOf(server, other.id);
    await other.prompt(X3);
    const last = (await turnRequests()).at(-1);
    expect(userTexts(last?.body)).toEqual([X1, X2, X3]);
    const stored = await other.messages();
    expect(stored.at(-1)?.type === "idle" || stored.some((message) => message.type === "assistant")).toBe(true);
    expect(server.output()).toMatch(/opencode-rcm warn session state was unreadable \(not JSON.*\); moved it aside and started a new ledger/);
    const kept = await readdir(join(stateDir, "sessions"));
    expect(kept.some((name) => name.startsWith(`${other.id}.json.`) && name !== `${other.id}.json`)).toBe(true);
  }, 90_000);
});

// The router prompt's opening line: how the scripted model tells the plug-in's aux call from the agent's own.
const ROUTER_SYSTEM = "You assign requests in a coding-agent session to tasks.";
const FIRST = "Add a parse_duration function to timeutil/parse.py that accepts values like 90s and 5m and returns seconds.";
const FOLLOW_UP = "run the tests again";
const UNSURE = "also add a dark mode toggle to the settings page";

describe("the model router through the user's OpenCode 2 models (ctx.generate.text; no endpoint, no key)", () => {
  it("asks the session's model for each request after the first, with no tools, and routes as it answers", async () => {
    const root = join(temp.path, "aux");
    const auxRepo = join(root, "repo");
    const auxState = join(root, "state");
    await createGitRepo(auxRepo, { "timeutil/parse.py": "def parse(text):\n    return text\n" });
    const isAux = (body: ChatRequestBody) => body.messages.some((message) => messageText(message.content).includes(ROUTER_SYSTEM));
    const routed = (body: ChatRequestBody) =>
      /<request>\n?([\s\S]*?)\n?<\/request>/.exec(body.messages.map((message) => messageText(message.content)).join("\n"))?.[1]?.trim();
    const auxModel = await startScriptedModel({
      logFile: join(root, "model-requests.jsonl"),
      script: ({ body }) => {
        if (isTitleRequest(body)) return { text: "Scripted title" };
        if (!isAux(body)) return { text: "Done." };
        const task = routed(body) === UNSURE ? "new" : "t1";
        const title = task === "new" ? "Settings page dark mode" : "";
        return {
          text: JSON.stringify({ task, title, confidence: 0.9, related: [], shared: false, reason: task === "new" ? "a different page" : "same parser work" }),
        };
      },
    });
    const auxServer = await startOpencode2Server({
      root: join(root, "home"),
      cwd: auxRepo,
      config: opencode2Config({
        modelBaseURL: auxModel.url,
        plugins: [{ package: packageRoot(), options: { mode: "router", router: "model", stateDir: auxState, aux: { source: "opencode", timeoutMs: 5000 } } }],
      }),
    });
    try {
      const session = await openSession(auxServer, auxRepo);
      for (const text of [FIRST, FOLLOW_UP, UNSURE]) await session.prompt(text);
      const bodies = (await auxModel.requests()).map((request) => request.body as ChatRequestBody);
      const aux = bodies.filter(isAux);
      expect(aux.map(routed)).toEqual([FOLLOW_UP, UNSURE]);
      for (const body of aux) expect((body as { tools?: unknown[] }).tools ?? []).toEqual([]);
      const read = await readSessionState(auxState, session.id);
      if (read.status !== "loaded") throw new Error(`no state: ${JSON.stringify(read)}`);
      const { ledger } = read.state;
      const entries = ledger.order.map((id) => ledger.decisions[id]);
      expect(entries[0]).toMatchObject({ router: "lexical", task: "t1", opened: true });
      expect(entries[1]).toMatchObject({ router: "model", task: "t1", confidence: 0.9, reason: "same parser work" });
      expect(entries[2]).toMatchObject({ router: "model", task: "t2", opened: true });
    } finally {
      await auxServer.close();
      await auxModel.close();
    }
  }, 90_000);
});

describe("opencode-rcm in mode native in OpenCode 2.0.15", () => {
  it("sends the model the same requests as a run without the plug-in", async () => {
    const runOnce = async (name: string, plugins: Array<{ package: string; options?: Record<string, unknown> }>): Promise<string[]> => {
      const root = join(temp.path, name);
      const project = join(root, "repo");
      await createGitRepo(project, { "textkit/slugify.py": "def slugify(text):\n    return text\n" });
      const script = {
        stages: [
          {
            id: "a1",
            when: A1,
            steps: [{ toolCalls: [{ name: "write", arguments: { path: join(project, "textkit/slugify.py"), content: "x = 1\n" } }] }, { text: "Added." }],
          },
        ],
        fallback: { text: "Done." },
      };
      const own = await startScriptedModel({ script: opencode2Responder(script), logFile: join(root, "model-requests.jsonl") });
      const started = await startOpencode2Server({ root: join(root, "home"), cwd: project, config: opencode2Config({ modelBaseURL: own.url, plugins }) });
      try {
        const session = await openSession(started, project);
        for (const text of [A1, B1, A2]) await session.prompt(text);
        const bodies = (await own.requests()).map((request) => request.body as ChatRequestBody).filter((body) => !isTitleRequest(body));
        // What differs between two runs by nature: the session id, the folder, the scripted model's call ids.
        return bodies.map((body) =>
          JSON.stringify(body)
            .replaceAll(root, "<root>")
            .replace(/ses_[A-Za-z0-9]+/g, "<session>")
            .replace(/call_\d+_\d+/g, "<call>"),
        );
      } finally {
        await started.close();
        await own.close();
      }
    };
    const without = await runOnce("native-without", []);
    const native = await runOnce("native-with", [{ package: packageRoot(), options: { mode: "native", stateDir: join(temp.path, "native-state") } }]);
    expect(without).toHaveLength(4);
    expect(native).toEqual(without);
  }, 90_000);
});
