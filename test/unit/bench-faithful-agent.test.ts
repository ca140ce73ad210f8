import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFaithfulAgent, type FaithfulDecision } from "../../src/lab/bench/agent/faithful-agent.js";
import { type FaithfulPlaybook, loadFaithfulPlaybook, missingSets } from "../../src/lab/bench/agent/faithful-playbook.js";
import { lossySummary } from "../../src/lab/bench/agent/lossy-summary.js";
import { FINALIZE_REQUEST } from "../../src/lab/bench/suite/request-text.js";
import type { ChatMessage, Reply } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";

// The faithful agent's rules on the bundled suite's own playbook and on small suites written
// here: it writes what the requirements in view imply, and nothing else decides it.

const SUITE = join(import.meta.dirname, "..", "..", "fixtures", "switch-mini");
const WS = "/run/sessions/s__switched/native/ws1";
const OTHER = "/run/sessions/s__switched/native/ws2";

let playbook: FaithfulPlaybook;
beforeAll(async () => {
  playbook = await loadFaithfulPlaybook(SUITE);
});

function request(task: string, stage: string): string {
  for (const [text, found] of playbook.requests) if (found.task.id === task && found.stage.id === stage) return text;
  throw new Error(`no request ${task}/${stage}`);
}

/** A finished exchange: the request, the agent's write and check, its report. */
function exchange(workspace: string, text: string): ChatMessage[] {
  return [
    { role: "user", content: `${workspace}: ${text}` },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "write", arguments: "{}" } }] },
    { role: "tool", content: "Wrote file successfully.", tool_call_id: "c1" },
    { role: "assistant", content: "Done." },
  ];
}

function call(...messages: ChatMessage[]): ChatMessage[] {
  return [{ role: "system", content: "You are opencode." }, ...messages];
}

async function decide(messages: ChatMessage[]): Promise<{ reply: Reply; decision: FaithfulDecision | undefined }> {
  let decision: FaithfulDecision | undefined;
  const agent = createFaithfulAgent(playbook, { onDecision: (made) => (decision = made) });
  const reply = await agent({ body: { model: "scripted", messages }, index: 7 });
  return { reply, decision };
}

function written(reply: Reply): Record<string, unknown> {
  return Object.fromEntries((reply.toolCalls ?? []).filter((tool) => tool.name === "write").map((tool) => [tool.arguments.filePath, tool.arguments.content]));
}

const CFG1 = "minicfg__minicfg-1";
const FLAG = "minicfg/options/flag.py";
const stageOf = (task: string, stage: string) => {
  const found = playbook.tasks.get(task)?.stages.find((candidate) => candidate.id === stage);
  if (!found) throw new Error(`no stage ${task}/${stage}`);
  return found;
};

describe("the faithful agent", () => {
  it("sees an earlier stage whose rule is in view, and writes the stage with it", async () => {
    const { reply, decision } = await decide(call(...exchange(WS, request(CFG1, "stage-1")), { role: "user", content: `${WS}: ${request(CFG1, "stage-2")}` }));
    expect(written(reply)).toEqual({ [`${WS}/${FLAG}`]: stageOf(CFG1, "stage-2").writes[FLAG] });
    expect(decision).toMatchObject({
      index: 7,
      workspace: WS,
      task: CFG1,
      stage: "stage-2",
      seen: ["stage-1"],
      lost: [],
      leaked: [],
      wrote: "stage-2",
      files: [FLAG],
    });
  });

  it("does not apply an earlier stage whose rule is out of view", async () => {
    const { reply, decision } = await decide(call({ role: "user", content: `${WS}: ${request(CFG1, "stage-2")}` }));
    expect(written(reply)).toEqual({ [`${WS}/${FLAG}`]: stageOf(CFG1, "stage-2").without.get("stage-1")?.[FLAG] });
    expect(decision).toMatchObject({ seen: [], lost: ["stage-1"], wrote: "stage-2 without stage-1" });
  });

  it("sees a rule however it is quoted (a memory record's constraint), but not in code it wrote or in tool output", async () => {
    const rule = stageOf(CFG1, "stage-1").rule;
    const record = `<rcm-task-memory task="t1">\nConstraints (from the user's requests):\n- ${rule.toUpperCase().replace(/ /g, "\n  ")}\n</rcm-task-memory>`;
    const current: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: record },
        { type: "text", text: `${WS}: ${request(CFG1, "stage-2")}` },
      ],
    };
    expect((await decide(call(current))).decision).toMatchObject({ seen: ["stage-1"], lost: [] });
    const inCode: ChatMessage[] = [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "write", arguments: JSON.stringify({ content: `# ${rule}` }) } }],
      },
      { role: "tool", content: `# ${rule}`, tool_call_id: "c1" },
    ];
    expect((await decide(call(...inCode, { role: "user", content: `${WS}: ${request(CFG1, "stage-2")}` }))).decision).toMatchObject({
      seen: [],
      lost: ["stage-1"],
    });
  });

  it("applies another task's visible requirement declared confusable with the stage, and says so", async () => {
    const focus = "minicfg__minicfg-4";
    const leak = stageOf(focus, "stage-3").confusions[0];
    expect(leak?.with).toBe("minicfg__minicfg-3/stage-3");
    const history = [...exchange(WS, request(focus, "stage-1")), ...exchange(WS, request(focus, "stage-2"))];
    const withOther = call(...history, ...exchange(OTHER, request("minicfg__minicfg-3", "stage-3")), {
      role: "user",
      content: `${WS}: ${request(focus, "stage-3")}`,
    });
    const { reply, decision } = await decide(withOther);
    expect(written(reply)).toEqual({ [`${WS}/minicfg/env/expand.py`]: leak?.writes["minicfg/env/expand.py"] });
    expect(decision).toMatchObject({
      seen: ["stage-1", "stage-2"],
      lost: [],
      leaked: ["minicfg__minicfg-3/stage-3"],
      wrote: "stage-3 with minicfg__minicfg-3/stage-3",
    });
    // The other task out of view (what a confident router gives): the stage as asked.
    const alone = await decide(call(...history, { role: "user", content: `${WS}: ${request(focus, "stage-3")}` }));
    expect(alone.decision).toMatchObject({ leaked: [], confusableSeen: [], wrote: "stage-3" });
  });

  it("writes the variant without a lost stage even when a confusable requirement is in view, and logs both", async () => {
    const focus = "minicfg__minicfg-4";
    const messages = call(...exchange(WS, request(focus, "stage-2")), ...exchange(OTHER, request("minicfg__minicfg-3", "stage-3")), {
      role: "user",
      content: `${WS}: ${request(focus, "stage-3")}`,
    });
    expect((await decide(messages)).decision).toMatchObject({
      seen: ["stage-2"],
      lost: ["stage-1"],
      leaked: [],
      confusableSeen: ["minicfg__minicfg-3/stage-3"],
      wrote: "stage-3 without stage-1",
    });
  });

  it("is deterministic: the same call gets the same bytes and the same decision", async () => {
    const messages = call(...exchange(WS, request(CFG1, "stage-1")), { role: "user", content: `${WS}: ${request(CFG1, "stage-2")}` });
    const [first, second] = [await decide(messages), await decide(messages)];
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it("reports after the write, continues its request after OpenCode's Continue, finalizes, and knows no other request", async () => {
    const current: ChatMessage = { role: "user", content: `${WS}: ${request(CFG1, "stage-1")}` };
    const [, written1, result] = exchange(WS, request(CFG1, "stage-1"));
    expect((await decide(call(current, written1 as ChatMessage, result as ChatMessage))).reply).toEqual({ text: "Done with stage-1." });
    const continued = await decide(call(current, { role: "user", content: "Continue if you have next steps" }));
    expect(continued.decision).toMatchObject({ stage: "stage-1", wrote: "stage-1" });
    expect((await decide(call({ role: "user", content: `${WS}: ${FINALIZE_REQUEST}` }))).reply.toolCalls?.[0]?.name).toBe("bash");
    expect((await decide(call({ role: "user", content: `${WS}: Please also fix the README.` }))).reply).toEqual({ text: "I can't tell which task this is." });
  });
});

describe("the lossy summary", () => {
  it("keeps the conversation's latest request word for word and nothing else", () => {
    const older = `${WS}: ${request(CFG1, "stage-1")}`;
    const latest = `${OTHER}: ${request("minicfg__minicfg-3", "stage-1")}`;
    const text = `Here is the conversation so far:\n\n<conversation>\n[User]: ${older}\n\n[Assistant tool call]: write({})\n[Tool result]: ok\n[Assistant]: Done.\n[User]: ${latest}\n</conversation>\n\nCreate a new anchored summary`;
    const summary = lossySummary(text);
    expect(summary).toContain(latest);
    expect(summary).not.toContain(request(CFG1, "stage-1").slice(0, 40));
  });
});

describe("the faithful playbook", () => {
  it("has, on the bundled suite, a rule for every stage and a variant for every set of earlier stages", () => {
    for (const task of playbook.tasks.values()) {
      task.stages.forEach((stage, index) => {
        expect(stage.rule.length).toBeGreaterThan(0);
        expect([...stage.without.keys()]).toEqual(missingSets(task.stages.slice(0, index).map((earlier) => earlier.id)));
      });
    }
    expect(missingSets(["stage-1", "stage-2"])).toEqual(["stage-1", "stage-2", "stage-1+stage-2"]);
  });

  describe("refuses a suite it cannot be faithful to, naming the file", () => {
    let temp: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir("rcm-faithful");
    });
    afterEach(async () => temp.remove());

    const put = async (path: string, text: string) => {
      await mkdir(dirname(join(temp.path, path)), { recursive: true });
      await writeFile(join(temp.path, path), text);
    };
    const suite = async (rules: Record<string, Record<string, string>>, extra: Record<string, string> = {}) => {
      const stages = (a: string, b: string) => ({
        "stage-1": { request: a, writes: { "m.py": "x = 1\n" } },
        "stage-2": { request: b, writes: { "m.py": "x = 2\n" } },
      });
      await put(
        "agent.json",
        JSON.stringify({
          tasks: { a: { stages: stages("Make x one always", "Make x two now") }, b: { stages: stages("Keep y unset when empty", "Make y two") } },
        }),
      );
      for (const [task, phrases] of Object.entries(rules)) await put(`tasks/${task}/faithful/rules.json`, JSON.stringify(phrases));
      for (const task of ["a", "b"]) await put(`tasks/${task}/faithful/stage-2/without-stage-1/m.py`, "x = 0\n");
      for (const [path, text] of Object.entries(extra)) await put(path, text);
    };
    const good = { a: { "stage-1": "x one always", "stage-2": "x two now" }, b: { "stage-1": "unset when empty", "stage-2": "make y two" } };

    it("loads a complete one", async () => {
      await suite(good);
      expect((await loadFaithfulPlaybook(temp.path)).tasks.size).toBe(2);
    });

    it("a rule that is not in its request, or is in another's", async () => {
      await suite({ ...good, a: { "stage-1": "x three", "stage-2": "x two now" } });
      await expect(loadFaithfulPlaybook(temp.path)).rejects.toThrow(
        `${join(temp.path, "tasks", "a", "faithful", "rules.json")}: stage-1: "x three" is not in the stage's request`,
      );
      await suite({ ...good, a: { "stage-1": "x one always", "stage-2": "two" } });
      await expect(loadFaithfulPlaybook(temp.path)).rejects.toThrow(/stage-2: "two" is also in b\/stage-2's request/);
    });

    it("a missing variant, or one that writes other files", async () => {
      await suite(good, { "tasks/a/faithful/stage-2/without-stage-1/n.py": "" });
      await expect(loadFaithfulPlaybook(temp.path)).rejects.toThrow(
        `${join(temp.path, "tasks", "a", "faithful")}: stage-2/without-stage-1: holds m.py, n.py; the stage writes m.py`,
      );
      await suite(good, { "tasks/a/faithful/stage-2/without-stage-3/m.py": "" });
      await expect(loadFaithfulPlaybook(temp.path)).rejects.toThrow(/stage-2\/without-stage-3: not a variant of stage-2/);
    });

    it("a confusion whose tasks share no word, or without its files", async () => {
      await suite(good, { "tasks/a/faithful/confusions.json": JSON.stringify([{ stage: "stage-2", with: "b/stage-1", shared: "empty" }]) });
      await expect(loadFaithfulPlaybook(temp.path)).rejects.toThrow(/confusions\.json: 0\.shared: "empty" is in no request of a/);
      await suite(good, { "tasks/a/faithful/confusions.json": JSON.stringify([{ stage: "stage-2", with: "b/stage-1", shared: "make" }]) });
      await expect(loadFaithfulPlaybook(temp.path)).rejects.toThrow(
        /stage-2\/with-b\.stage-1: missing: the files written at stage-2 when b\/stage-1's requirement leaks in/,
      );
    });
  });
});
