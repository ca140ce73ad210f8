import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { prepareCheckouts } from "../../src/lab/bench/checkout/prepare-checkouts.js";
import { opencode1Host } from "../../src/lab/bench/drive/host-server.js";
import { startOpencode2Host } from "../../src/lab/bench/drive/opencode-2-host.js";
import { runSession } from "../../src/lab/bench/drive/run-session.js";
import { loadSuite } from "../../src/lab/bench/suite/load-suite.js";
import type { Suite } from "../../src/lab/bench/suite/schema.js";
import { opencode2Config } from "../../src/lab/harness/opencode-2-server.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { messageText, type Responder, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let suite: Suite;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-budget");
  suite = await loadSuite(join(packageRoot(), "fixtures", "bench-small"));
});
afterAll(async () => {
  await temp?.remove();
});

/** A model that takes far longer than the budget on the first stage, and answers everything else at once. */
const slowOnFirstStage =
  (firstStage: string): Responder =>
  async ({ body }) => {
    const last = body.messages.findLast((message) => message.role === "user");
    const text = messageText(last?.content);
    if (text.includes(firstStage) && !body.messages.some((message) => message.role === "assistant")) {
      await new Promise((resolve) => setTimeout(resolve, 6_000));
    }
    return { text: "Done." };
  };

async function drive(maxContinuations: number, name: string) {
  const spec = suite.sessions.find((session) => session.condition === "uninterrupted");
  if (!spec) throw new Error("the small suite has no uninterrupted session");
  const dir = join(temp.path, name);
  const checkouts = await prepareCheckouts({ suite, session: spec, dir, seed: 1 });
  const firstStage = checkouts.get(spec.focus)?.task.stages[0]?.request as string;
  return withScriptedOpencode({ runDir: join(temp.path, `${name}-run`), directory: dir, script: slowOnFirstStage(firstStage), plugins: [] }, ({ server }) =>
    runSession({ host: opencode1Host(server, dir, { owned: false }), spec, checkouts, budgetMs: 2_000, maxContinuations }),
  );
}

describe("a session's per-request budget in the real OpenCode", () => {
  it("aborts a request past its budget and sends a continuation, then goes on to finalize", async () => {
    const run = await drive(1, "continued");
    expect(run.requests.map((request) => [request.stage, request.continuation, request.timedOut])).toEqual([
      ["stage-1", false, true],
      ["stage-1", true, false],
      ["stage-2", false, false],
      ["finalize", false, false],
    ]);
    expect(run).toMatchObject({ continuations: 1, finalized: true, budgetExhausted: false });
    expect(run.error).toBeUndefined();
  }, 120_000);

  it("stops the session when no continuation is left: budget exhausted, not finalized", async () => {
    const run = await drive(0, "exhausted");
    expect(run.requests).toHaveLength(1);
    expect(run).toMatchObject({ continuations: 0, finalized: false, budgetExhausted: true });
  }, 120_000);
});

describe("a session's per-request budget in the real OpenCode 2", () => {
  it("interrupts a request past its budget and sends a continuation, then goes on to finalize", async () => {
    const spec = suite.sessions.find((session) => session.condition === "uninterrupted");
    if (!spec) throw new Error("the small suite has no uninterrupted session");
    const dir = join(temp.path, "v2");
    const checkouts = await prepareCheckouts({ suite, session: spec, dir, seed: 1 });
    const firstStage = checkouts.get(spec.focus)?.task.stages[0]?.request as string;
    const model = await startScriptedModel({ script: slowOnFirstStage(firstStage), logFile: join(temp.path, "v2-model.jsonl") });
    const config = opencode2Config({ modelBaseURL: model.url, plugins: [] });
    const host = await startOpencode2Host({ root: join(temp.path, "v2-home"), cwd: dir, directory: dir, config, env: {} });
    try {
      const run = await runSession({ host, spec, checkouts, budgetMs: 2_000, maxContinuations: 1 });
      expect(run.requests.map((request) => [request.stage, request.continuation, request.timedOut])).toEqual([
        ["stage-1", false, true],
        ["stage-1", true, false],
        ["stage-2", false, false],
        ["finalize", false, false],
      ]);
      expect(run).toMatchObject({ continuations: 1, finalized: true, budgetExhausted: false });
      expect(run.error).toBeUndefined();
      // The stored history holds the four requests, the continuation after the interrupted one included.
      const stored = await host.messages(run.opencodeSessionID);
      const texts = stored.filter((message) => message.info.role === "user").map((message) => (message.parts[0]?.type === "text" ? message.parts[0].text : ""));
      expect(texts.map((text) => text.includes("Continue where you stopped."))).toEqual([false, true, false, false]);
    } finally {
      await host.close();
      await model.close();
    }
  }, 120_000);
});
