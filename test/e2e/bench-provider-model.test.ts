import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { loadPlaybook } from "../../src/lab/bench/agent/playbook.js";
import { createScriptedAgent } from "../../src/lab/bench/agent/replay-agent.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { readRequestLog } from "../../src/lab/bench/run-dir/tidy-run-dir.js";
import { type ScriptedModel, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { runCli, runCliOk } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

const SUITE = join(packageRoot(), "fixtures", "bench-small");
let temp: Awaited<ReturnType<typeof makeTempDir>>;
let upstream: ScriptedModel;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-provider");
  // Stands in for a provider's model: OpenCode reaches it as any OpenAI-compatible provider, and the bench records nothing of its own.
  upstream = await startScriptedModel({
    script: createScriptedAgent(await loadPlaybook(join(SUITE, "agent.json"))),
    logFile: join(temp.path, "upstream.jsonl"),
  });
});
afterAll(async () => {
  await upstream?.close();
  await temp?.remove();
});

describe("bench run with a provider's model", () => {
  it("records what each model call got after the plug-in, and measures fidelity from it", async () => {
    const providers = join(temp.path, "providers.json");
    const models = { m: { tool_call: true, limit: { context: 128_000, output: 8_000 } } };
    // The endpoint comes from this environment through --pass-env, as a provider's key would: the servers see nothing else of it.
    const options = { baseURL: "{env:UPSTREAM_BASE_URL}", apiKey: "{env:UPSTREAM_KEY}" };
    await writeFile(providers, JSON.stringify({ provider: { up: { npm: "@ai-sdk/openai-compatible", options, models } } }));
    const out = join(temp.path, "run");
    const cli = ["bench", "run", "--suite", SUITE, "--provider-config", providers, "--modes", "native,router", "--sessions", "2", "--out", out];
    // The CLI's main in this process, with an environment of its own: the provider's variables are not in this process's.
    const env = { PATH: process.env["PATH"], OPENCODE_BIN: process.env["OPENCODE_BIN"], UPSTREAM_BASE_URL: upstream.url, UPSTREAM_KEY: "k" };
    // The provider's key in --model, not its name: a wrong one is refused before anything starts.
    const wrong = (await runCli([...cli, "--model", "upstream/m"], env)).stderr;
    expect(wrong).toContain(`--model upstream/m: --provider-config ${providers} has no provider "upstream" (its keys: "up")`);
    const plan = await runCliOk([...cli, "--model", "up/m", "--pass-env", "UPSTREAM_BASE_URL,UPSTREAM_KEY", "--dry-run"], env);
    expect(plan.stdout).toMatch(/^Dry run: nothing is started/);
    expect(plan.stdout).toContain("they get --pass-env UPSTREAM_BASE_URL, UPSTREAM_KEY, and RCM_*");
    await expect(readFile(join(out, "run.json"), "utf8")).rejects.toThrow(/ENOENT/);
    await runCliOk([...cli, "--model", "up/m", "--pass-env", "UPSTREAM_BASE_URL,UPSTREAM_KEY"], env);
    const lines = (await readFile(join(out, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => line.resolved)).toEqual([true, true, true, true]);
    // Every call the provider got was recorded once, by the recorder after opencode-rcm.
    // A finished run keeps its request logs gzipped (run-dir/tidy-run-dir.ts).
    const count = async (file: string) => (await readRequestLog(file)).trim().split("\n").length;
    expect((await count(join(out, "model-requests", "native.jsonl"))) + (await count(join(out, "model-requests", "router.jsonl")))).toBe(
      await count(join(temp.path, "upstream.jsonl")),
    );
    const resumed = (mode: string) =>
      lines.find((line) => line.mode === mode && line.condition === "switched")?.fidelity?.find((point) => point.at === "resume");
    expect(resumed("native")).toMatchObject({ requirements: 1, verbatim: 1 });
    expect(resumed("native")?.other_task_tokens).toBeGreaterThan(0);
    // The router's narrowing is what was recorded: the recorder runs after opencode-rcm's transform.
    expect(resumed("router")).toMatchObject({ requirements: 1, verbatim: 1, other_task_tokens: 0 });
    // No provider cache counts, and no simulation on calls recorded without the system prompt and tools.
    for (const line of lines) expect(line.cache).toBeUndefined();
  }, 400_000);
});
