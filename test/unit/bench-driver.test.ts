import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceNames } from "../../src/lab/bench/checkout/workspace-names.js";
import { startAgentModel } from "../../src/lab/bench/drive/agent-model.js";
import { pluginEnv } from "../../src/lab/bench/drive/plugin-env.js";
import type { SentRequest } from "../../src/lab/bench/drive/run-session.js";
import { sessionUsage } from "../../src/lab/bench/metrics/session-usage.js";
import { renderReport } from "../../src/lab/bench/results/render-report.js";
import { readResults } from "../../src/lab/bench/run-dir/read-results.js";
import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";
import { FINALIZE_REQUEST, parseRequestText, requestText } from "../../src/lab/bench/suite/request-text.js";
import type { Suite } from "../../src/lab/bench/suite/schema.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { resultLine } from "../support/result-line.js";
import { ledgerOf } from "../support/routing.js";
import { makeTempDir } from "../support/temp-dir.js";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-driver");
});
afterAll(async () => {
  await temp.remove();
});

describe("the plug-in settings a run hands to OpenCode", () => {
  it("are the RCM_* variables and the aux key's variable, never the run's own mode or state dir", () => {
    const env = {
      PATH: "/usr/bin",
      HOME: "/root",
      RCM_ROUTER: "model",
      RCM_AUX_BASE_URL: "http://127.0.0.1:8000/v1",
      RCM_AUX_MODEL: "qwen",
      RCM_AUX_API_KEY_ENV: "MY_KEY",
      MY_KEY: "k",
      RCM_MODE: "native",
      RCM_STATE_DIR: "/elsewhere",
      OPENAI_API_KEY: "not forwarded",
    };
    expect(pluginEnv(env)).toEqual({
      RCM_ROUTER: "model",
      RCM_AUX_BASE_URL: "http://127.0.0.1:8000/v1",
      RCM_AUX_MODEL: "qwen",
      RCM_AUX_API_KEY_ENV: "MY_KEY",
      MY_KEY: "k",
    });
    expect(pluginEnv({ RCM_AUX_API_KEY: "k2", RCM_MEMORY_UPDATER: "extractive" })).toEqual({ RCM_AUX_API_KEY: "k2", RCM_MEMORY_UPDATER: "extractive" });
  });
});

describe("workspace names", () => {
  it("are ws1..wsN in an order that depends on the seed and the session, never on the roles", () => {
    const tasks = ["focus", "b", "c", "d", "e"];
    const names = workspaceNames(tasks, { seed: 1, sessionID: "s" });
    expect([...names.values()].sort()).toEqual(["ws1", "ws2", "ws3", "ws4", "ws5"]);
    expect(workspaceNames(tasks, { seed: 1, sessionID: "s" })).toEqual(names);
    const seeds = Array.from({ length: 8 }, (_, seed) => workspaceNames(tasks, { seed, sessionID: "s" }).get("focus"));
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});

describe("request text", () => {
  it("prefixes the workspace and reads it back", () => {
    const text = requestText("/run/s/native/ws3", FINALIZE_REQUEST);
    expect(text).toBe(`/run/s/native/ws3: ${FINALIZE_REQUEST}`);
    expect(parseRequestText(text)).toEqual({ workspace: "/run/s/native/ws3", request: FINALIZE_REQUEST });
    expect(parseRequestText("no workspace here")).toBeUndefined();
  });
});

function user(id: string, text: string, synthetic = false): MessageWithParts {
  return {
    info: { id, sessionID: "s", role: "user", time: { created: 0 }, agent: "build", model: { providerID: "p", modelID: "m" } },
    parts: [{ id: `${id}-p`, sessionID: "s", messageID: id, type: "text", text, ...(synthetic ? { synthetic: true } : {}) }],
  } as MessageWithParts;
}

function step(id: string, parentID: string, input: number, tools: number): MessageWithParts {
  return {
    info: {
      id,
      sessionID: "s",
      role: "assistant",
      parentID,
      time: { created: 0 },
      modelID: "m",
      providerID: "p",
      mode: "build",
      agent: "build",
      path: { cwd: "/", root: "/" },
      cost: 0,
      tokens: { input, output: 10, reasoning: 2, cache: { read: 5, write: 1 } },
    },
    parts: Array.from({ length: tools }, (_, n) => ({
      id: `${id}-t${n}`,
      sessionID: "s",
      messageID: id,
      type: "tool",
      callID: `${id}-c${n}`,
      tool: "bash",
      state: { status: "completed", input: {}, output: "", title: "", metadata: {}, time: { start: 0, end: 1 } },
    })),
  } as MessageWithParts;
}

describe("session usage", () => {
  it("adds up tokens, model and tool calls, and the resumed focus stages apart, with aux cost from the ledger", () => {
    const messages = [
      user("u1", "ws1: focus stage 1"),
      step("a1", "u1", 100, 2),
      user("u2", "ws2: interruption"),
      step("a2", "u2", 200, 1),
      user("u3", "ws1: focus stage 2"),
      step("a3", "u3", 300, 1),
      user("u4", "Continue if you have next steps", true),
      step("a4", "u4", 50, 0),
    ];
    const requests: SentRequest[] = [
      { entry: 0, task: "F", stage: "s1", text: "t", continuation: false, timedOut: false, ms: 1 },
      { entry: 1, task: "B", stage: "s1", text: "t", continuation: false, timedOut: false, ms: 1 },
      { entry: 2, task: "F", stage: "s2", text: "t", continuation: false, timedOut: false, ms: 1 },
    ];
    const ledger = ledgerOf([
      ["u1", "new:F"],
      ["u2", "new:B"],
      ["u3", "t1", 0.9, { aux: { calls: 1, inputTokens: 40, outputTokens: 8, ms: 30 } }],
    ]);
    const usage = sessionUsage({ messages, requests, focus: "F", firstFocusStage: "s1", ledger });
    expect(usage.session).toEqual({ inputTokens: 674, outputTokens: 48, cachedInputTokens: 20, cacheWriteTokens: 4, modelCalls: 4, toolCalls: 4 });
    expect(usage.resumedFocus).toEqual({ inputTokens: 362, outputTokens: 24, cachedInputTokens: 10, cacheWriteTokens: 2, modelCalls: 2, toolCalls: 1 });
    expect(usage.aux).toEqual({ calls: 1, inputTokens: 40, outputTokens: 8, ms: 30 });
    expect(usage.resumedFocusAux).toEqual(usage.aux);

    // Memory updates run between requests: their aux cost counts for the session as a whole.
    const memoryAux = [
      { calls: 2, inputTokens: 900, outputTokens: 120, ms: 400 },
      { calls: 1, inputTokens: 500, outputTokens: 60, ms: 200, error: "http: 500" },
    ];
    const withMemory = sessionUsage({ messages, requests, focus: "F", firstFocusStage: "s1", ledger, memoryAux });
    expect(withMemory.aux).toEqual({ calls: 4, inputTokens: 1440, outputTokens: 188, ms: 630 });
    expect(withMemory.resumedFocusAux).toEqual(usage.resumedFocusAux);
  });
});

function line(extra: Partial<ResultLine> = {}): ResultLine {
  return resultLine({ session_id: "x", ...extra });
}

describe("results and the report", () => {
  it("ignore a torn last line and name the line of any other bad one", async () => {
    const file = join(temp.path, "results.jsonl");
    await writeFile(file, `${JSON.stringify(line({}))}\n{"session_id": "tor`);
    expect(await readResults(file)).toHaveLength(1);
    await writeFile(file, `{"oops": 1}\n${JSON.stringify(line({}))}\n`);
    await expect(readResults(file)).rejects.toThrow(`${file}:1: session_id:`);
  });

  it("report resolution per mode and condition, the gap and the near and far gaps", () => {
    const results = [
      line({ session_id: "a__u", condition: "uninterrupted", locality: "near" }),
      line({ session_id: "a__s", condition: "switched", locality: "near", resolved: false, failure_class: "implementation" }),
      line({ session_id: "b__u", condition: "uninterrupted", locality: "far" }),
      line({ session_id: "b__s", condition: "switched", locality: "far" }),
    ];
    const report = renderReport(results, { title: "t" });
    expect(report).toContain("| native | 100.0% (2/2) | 50.0% (1/2) | 50.0 | 100.0 | 0.0 |");
    expect(report).toContain("| native | switched | 1 | 1 | 0 | 0 |");
  });
});

describe("the agent for a run", () => {
  it("takes providers from an opencode.json-style file and names the file when it is wrong", async () => {
    const good = join(temp.path, "providers.json");
    await writeFile(good, JSON.stringify({ provider: { ds: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:9/v1" } } } }));
    const suite = { dir: temp.path } as Suite;
    const model = await startAgentModel({
      agent: { kind: "model", model: "ds/chat", providerConfig: good },
      suite,
      logFile: join(temp.path, "log"),
      decisionLog: join(temp.path, "decisions"),
    });
    expect(model.config([])).toMatchObject({ model: "ds/chat", provider: { ds: { npm: "@ai-sdk/openai-compatible" } }, share: "disabled" });
    const bad = join(temp.path, "bad.json");
    await writeFile(bad, "[1]");
    await expect(startAgentModel({ agent: { kind: "model", model: "ds/chat", providerConfig: bad }, suite, logFile: "x", decisionLog: "y" })).rejects.toThrow(
      `--provider-config ${bad}`,
    );
  });
});
