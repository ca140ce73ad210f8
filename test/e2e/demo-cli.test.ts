import { describe, expect, it } from "vitest";
import { EXPECTED_MODEL_CALLS, FINAL_TODO, PROMPTS } from "../../src/lab/demo/multi-task-session.js";
import type { DemoResult } from "../../src/lab/demo/run-demo.js";
import { runCli } from "../support/run-cli.js";

// The demo through the CLI's main in this process, with this process's environment (OPENCODE_BIN, if
// set, names the binary); it starts the real OpenCode with the built plug-in (dist/).

describe("opencode-rcm demo (the README's main command)", () => {
  it("runs the scripted session through the real OpenCode and reports every model call", async () => {
    const { stdout } = await runCli(["demo", "--mode", "native", "--json"], process.env);
    const result = JSON.parse(stdout) as DemoResult;
    expect(result.calls).toHaveLength(EXPECTED_MODEL_CALLS);
    expect(result.calls.at(-1)?.userTexts).toEqual([...PROMPTS]);
    expect(result.calls[0]?.annotation).toBe("[opencode-rcm debug] mode=native messages=1 groups=1 (request=1)");
    expect(result.calls.at(-1)?.toolCalls).toContain("edit(./notes/todo.md)");
    expect(result.finalFile).toBe(FINAL_TODO);
    expect(result.runDir).toBeNull();
  });

  it("narrows in full mode: a new task is shown alone, and a follow-up naming the first task's file leaves the second out", async () => {
    const { stdout } = await runCli(["demo", "--json"], process.env);
    const result = JSON.parse(stdout) as DemoResult;
    const [first, second, third] = PROMPTS;
    const callsOf = (prompt: string) => result.calls.filter((call) => call.userTexts.at(-1) === prompt);
    for (const call of callsOf(second)) expect(call.leftOut).toEqual([first]);
    for (const call of callsOf(third)) expect(call.leftOut).toEqual([second]);
    expect(callsOf(third).length).toBeGreaterThan(0);
    expect(result.finalFile).toBe(FINAL_TODO);
  });

  it("rejects an unknown mode with exit code 2 and names the option", async () => {
    const failure = await runCli(["demo", "--mode", "turbo"]);
    expect(failure).toMatchObject({ code: 2, stdout: "" });
    expect(failure.stderr).toContain('--mode must be one of native, router, memory, full, got "turbo"');
  });
});
