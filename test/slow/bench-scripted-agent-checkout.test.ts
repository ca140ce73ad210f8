import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPlaybook, type Playbook } from "../../src/lab/bench/agent/playbook.js";
import { createScriptedAgent } from "../../src/lab/bench/agent/replay-agent.js";
import { loadTasks } from "../../src/lab/bench/suite/load-suite.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";
import { git } from "../../src/lab/harness/git-repo.js";
import type { Responder } from "../../src/lab/scripted-model/index.js";
import { ask, conversation } from "../support/scripted-agent-turns.js";
import { makeTempDir } from "../support/temp-dir.js";

// The scripted agent's playbook against the real repositories and tests of bench-small: real git
// and real pytest, so in the slow group (test/unit/bench-scripted-agent.test.ts has the rest).
const SUITE_DIR = join(import.meta.dirname, "..", "..", "fixtures", "bench-small");

/** Runs a shell command; resolves with its exit code and output even when it fails. */
function runShell(cwd: string, command: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("sh", ["-c", command], { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** Node ids that pytest's `-rA` summary reports as passing. */
function passedTests(output: string): Set<string> {
  const passed = new Set<string>();
  for (const match of output.matchAll(/^(PASSED|XFAIL) (\S+)/gm)) passed.add(match[2] as string);
  return passed;
}

describe("scripted agent on a clean checkout of bench-small", () => {
  let temp: { path: string; remove: () => Promise<void> };
  let playbook: Playbook;
  let tasks: Task[];

  beforeAll(async () => {
    temp = await makeTempDir("bench-agent");
    playbook = await loadPlaybook(join(SUITE_DIR, "agent.json"));
    tasks = await loadTasks(SUITE_DIR);
  });
  afterAll(async () => temp.remove());

  /** Sends the stage request to the agent and performs the write calls of its first turn. */
  async function playStage(agent: Responder, workspace: string, request: string): Promise<void> {
    const reply = await ask(agent, conversation(`${workspace}: ${request}`));
    for (const call of (reply.toolCalls ?? []).filter((candidate) => candidate.name !== "bash")) {
      expect(call.name).toBe("write");
      const filePath = call.arguments.filePath as string;
      expect(filePath.startsWith(`${workspace}/`)).toBe(true);
      await mkdir(dirname(filePath), { recursive: true });
      await writeFile(filePath, call.arguments.content as string);
    }
  }

  it("fails a held-out test after stage 1 alone and resolves the task after stage 2", async () => {
    const agent = createScriptedAgent(playbook);
    for (const task of tasks) {
      const workspace = join(temp.path, task.instance_id);
      await git(temp.path, ["clone", "-q", join(SUITE_DIR, task.repo_bundle ?? ""), task.instance_id]);
      await git(workspace, ["checkout", "-q", task.base_commit]);
      await writeFile(join(temp.path, `${task.instance_id}.test.diff`), task.test_patch);
      await git(workspace, ["apply", join(temp.path, `${task.instance_id}.test.diff`)]);
      const [first, second] = task.stages;
      if (first === undefined || second === undefined) throw new Error(`${task.instance_id} needs two stages`);

      await playStage(agent, workspace, first.request);
      const afterFirst = passedTests((await runShell(workspace, task.test_cmd)).output);
      expect(
        task.PASS_TO_PASS.filter((id) => !afterFirst.has(id)),
        `${task.instance_id} P2P after stage 1`,
      ).toEqual([]);
      expect(
        task.FAIL_TO_PASS.some((id) => !afterFirst.has(id)),
        `${task.instance_id} F2P after stage 1`,
      ).toBe(true);

      await playStage(agent, workspace, second.request);
      const afterSecond = passedTests((await runShell(workspace, task.test_cmd)).output);
      const failing = [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].filter((id) => !afterSecond.has(id));
      expect(failing, `${task.instance_id} after stage 2`).toEqual([]);
    }
  }, 180_000);

  it("runs a check command that works in the workspace", async () => {
    const agent = createScriptedAgent(playbook);
    const task = tasks[0];
    if (task === undefined) throw new Error("no task");
    const workspace = join(temp.path, "check");
    await git(temp.path, ["clone", "-q", join(SUITE_DIR, task.repo_bundle ?? ""), "check"]);
    const reply = await ask(agent, conversation(`${workspace}: ${task.stages[0]?.request}`, 0));
    const command = reply.toolCalls?.at(-1)?.arguments.command;
    expect(typeof command).toBe("string");
    const result = await runShell(temp.path, command as string);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/7 passed/);
  });
});
