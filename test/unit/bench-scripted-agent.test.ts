import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Playbook } from "../../src/lab/bench/agent/playbook.js";
import { loadPlaybook, PlaybookSchema, parsePlaybook } from "../../src/lab/bench/agent/playbook.js";
import { createScriptedAgent } from "../../src/lab/bench/agent/replay-agent.js";
import { loadTasks as loadSuiteTasks } from "../../src/lab/bench/suite/load-suite.js";
import { FINALIZE_REQUEST } from "../../src/lab/bench/suite/request-text.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";
import { SessionSpecSchema, SuiteMetaSchema } from "../../src/lab/bench/suite/schema.js";
import type { ChatMessage, Responder } from "../../src/lab/scripted-model/index.js";
import { ask, conversation } from "../support/scripted-agent-turns.js";
import { makeTempDir } from "../support/temp-dir.js";

const SUITE_DIR = join(import.meta.dirname, "..", "..", "fixtures", "bench-small");
const WS = "/tmp/ws1";

async function readJsonLines(file: string): Promise<unknown[]> {
  const text = await readFile(join(SUITE_DIR, file), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

async function loadTasks(): Promise<Task[]> {
  return loadSuiteTasks(SUITE_DIR);
}

describe("scripted agent", () => {
  let playbook: Playbook;
  let tasks: Task[];
  let agent: Responder;

  beforeAll(async () => {
    playbook = await loadPlaybook(join(SUITE_DIR, "agent.json"));
    tasks = await loadTasks();
    agent = createScriptedAgent(playbook);
  });

  function task(index: number): Task {
    const found = tasks[index];
    if (found === undefined) throw new Error(`no task ${index}`);
    return found;
  }

  function stageWrites(taskId: string, stageId: string): Record<string, string> {
    const writes = playbook.tasks[taskId]?.stages[stageId]?.writes;
    if (writes === undefined) throw new Error(`no writes for ${taskId}/${stageId}`);
    return writes;
  }

  it("writes every file of the stage on the first turn of a stage request", async () => {
    for (const current of tasks) {
      for (const stage of current.stages) {
        const reply = await ask(agent, conversation(`${WS}: ${stage.request}`));
        const writes = stageWrites(current.instance_id, stage.id);
        expect(reply.text).toBeUndefined();
        expect(reply.toolCalls?.slice(0, -1)).toEqual(
          Object.entries(writes).map(([path, content]) => ({ name: "write", arguments: { filePath: `${WS}/${path}`, content } })),
        );
      }
    }
  });

  it("runs the existing tests in the workspace along with its writes, and reports on the next turn", async () => {
    const request = `${WS}: ${task(0).stages[1]?.request}`;
    const first = await ask(agent, conversation(request, 0));
    expect(first.toolCalls?.at(-1)).toEqual({
      name: "bash",
      arguments: {
        command: `cd ${WS} && python3 -m pytest -q -p no:cacheprovider tests/test_existing.py || true`,
        description: "Run the tests",
      },
    });
    expect(await ask(agent, conversation(request, 1))).toEqual({ text: "Done with stage-2." });
    expect(await ask(agent, conversation(request, 5))).toEqual({ text: "Done with stage-2." });
  });

  it("shows git status and then submits for the finalization request", async () => {
    const request = `/tmp/ws3: ${FINALIZE_REQUEST}`;
    expect(await ask(agent, conversation(request))).toEqual({
      toolCalls: [{ name: "bash", arguments: { command: "cd /tmp/ws3 && git status --short", description: "Show the changes" } }],
    });
    expect(await ask(agent, conversation(request, 1))).toEqual({ text: "Submitted." });
  });

  it("reads the request from text parts of array content", async () => {
    const stage = task(2).stages[0];
    const content = [
      { type: "text", text: `/tmp/ws2: ${stage?.request}` },
      { type: "text", text: "<system-reminder>be brief</system-reminder>" },
    ];
    const reply = await ask(agent, conversation(content));
    expect(reply.toolCalls?.[0]?.arguments.filePath).toBe(`/tmp/ws2/${Object.keys(stageWrites(task(2).instance_id, "stage-1"))[0]}`);
  });

  it("acts only on the latest user message", async () => {
    const earlier: ChatMessage[] = [
      { role: "user", content: `${WS}: ${task(0).stages[0]?.request}` },
      { role: "assistant", content: "Done with stage-1." },
    ];
    expect(await ask(agent, conversation("What did you change?", 0, earlier))).toEqual({ text: "I can't tell which task this is." });
    const second = await ask(agent, conversation(`/tmp/ws2: ${task(1).stages[0]?.request}`, 0, earlier));
    expect(second.toolCalls?.[0]?.arguments.filePath).toMatch(/^\/tmp\/ws2\/minitext\/text\/wrap\.py$/);
  });

  it("does not recognise requests that are not exactly a stage's", async () => {
    const request = task(0).stages[0]?.request ?? "";
    const unknown = { text: "I can't tell which task this is." };
    expect(await ask(agent, conversation(request))).toEqual(unknown);
    expect(await ask(agent, conversation(`${WS}: ${request.slice(0, -1)}`))).toEqual(unknown);
    expect(await ask(agent, conversation(`${WS}: Please also fix the README.`))).toEqual(unknown);
    expect(await ask(agent, [{ role: "system", content: "no user yet" }])).toEqual(unknown);
  });

  it("answers a compaction request with the lossy summary (the latest request only), even when it quotes stage requests", async () => {
    const latest = `${WS}: ${task(1).stages[0]?.request}`;
    const quoted = `Here is the conversation so far:\n<conversation>\n[User]: ${WS}: ${task(0).stages[0]?.request}\n[Assistant]: Done.\n[User]: ${latest}\n</conversation>`;
    const reply = await ask(agent, conversation(quoted));
    expect(reply.toolCalls).toBeUndefined();
    expect(reply.text).toBe(`## Objective\n- ${latest}\n\n## Important Details\n- (none)`);
  });
});

describe("playbook", () => {
  const valid = { tasks: { t1: { stages: { "stage-1": { request: "Fix it.", writes: { "a/b.py": "x = 1\n" } } } } } };

  it("validates agent.json and names the same stage requests as the suite's tasks", async () => {
    const playbook = await loadPlaybook(join(SUITE_DIR, "agent.json"));
    const tasks = await loadTasks();
    expect(Object.keys(playbook.tasks)).toEqual(tasks.map((task) => task.instance_id));
    for (const task of tasks) {
      const stages = playbook.tasks[task.instance_id]?.stages ?? {};
      expect(Object.entries(stages).map(([id, stage]) => ({ id, request: stage.request }))).toEqual(task.stages);
    }
  });

  it("fills in the default check command", () => {
    expect(PlaybookSchema.parse(valid).checkCommand).toBe("python3 -m pytest -q -p no:cacheprovider tests/test_existing.py");
  });

  it("rejects paths outside the workspace, empty stages, duplicate requests and the finalize stage", () => {
    const stage = (writes: Record<string, string>, request = "Fix it.") => ({ request, writes });
    expect(() => parsePlaybook({ tasks: { t1: { stages: { s1: stage({ "/etc/passwd": "" }) } } } }, "agent.json")).toThrow(
      /^agent\.json: tasks\.t1\.stages\.s1\.writes.*relative path/,
    );
    expect(() => parsePlaybook({ tasks: { t1: { stages: { s1: stage({ "../up.py": "" }) } } } })).toThrow(/relative path/);
    expect(() => parsePlaybook({ tasks: { t1: { stages: { s1: stage({}) } } } })).toThrow(/at least one file/);
    expect(() => parsePlaybook({ tasks: { t1: { stages: { s1: stage({ "a.py": "" }) } }, t2: { stages: { s1: stage({ "b.py": "" }) } } } })).toThrow(
      /tasks\.t2\.stages\.s1\.request: same request as t1\/s1/,
    );
    expect(() => parsePlaybook({ tasks: { t1: { stages: { finalize: stage({ "a.py": "" }) } } } })).toThrow(/finalize/);
    expect(() => parsePlaybook({ tasks: { t1: { stages: { s1: stage({ "a.py": "" }, FINALIZE_REQUEST) } } } })).toThrow(/finalization/);
    expect(() => parsePlaybook({ ...valid, extra: true })).toThrow(/extra/);
  });

  it("names the file when loading fails", async () => {
    const temp = await makeTempDir("playbook");
    try {
      const file = join(temp.path, "agent.json");
      await writeFile(file, "{ not json");
      await expect(loadPlaybook(file)).rejects.toThrow(file);
    } finally {
      await temp.remove();
    }
  });
});

describe("bench-small suite", () => {
  it("validates against the suite schemas", async () => {
    SuiteMetaSchema.parse(JSON.parse(await readFile(join(SUITE_DIR, "suite.json"), "utf8")));
    const tasks = await loadTasks();
    const sessions = (await readJsonLines("sessions.jsonl")).map((line) => SessionSpecSchema.parse(line));
    expect(tasks).toHaveLength(3);
    expect(sessions).toHaveLength(6);
    for (const session of sessions) {
      expect(session.schedule.at(-1)).toEqual({ task: session.focus, stage: "finalize" });
      const twin = sessions.find((other) => other.focus === session.focus && other.condition === "uninterrupted");
      expect(session.schedule.filter((entry) => entry.task === session.focus)).toEqual(twin?.schedule);
    }
  });
});
