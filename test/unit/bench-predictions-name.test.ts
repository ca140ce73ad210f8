import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunSetting } from "../../src/lab/bench/run-dir/experiment.js";
import type { ResultLine } from "../../src/lab/bench/run-dir/result-line.js";
import { agentLabel, exportPredictions, parsePredictionName } from "../../src/lab/bench/swebench/predictions.js";
import { resultLine } from "../support/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

function line(extra: Partial<ResultLine> = {}): ResultLine {
  return resultLine(extra);
}

describe("predictions' model_name_or_path", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir("rcm-predictions");
  });
  afterEach(() => temp.remove());

  async function exported(run: Record<string, unknown>, lines: readonly ResultLine[]): Promise<string[]> {
    await writeFile(join(temp.path, "run.json"), JSON.stringify(run));
    await writeFile(join(temp.path, "results.jsonl"), lines.map((one) => `${JSON.stringify(one)}\n`).join(""));
    for (const one of lines) await mkdir(join(temp.path, "sessions", one.session_id, one.mode), { recursive: true });
    const files = await exportPredictions({ run: temp.path });
    const texts = await Promise.all(files.map((file) => readFile(file, "utf8")));
    return texts.flatMap((text) =>
      text
        .trim()
        .split("\n")
        .map((json) => (JSON.parse(json) as { model_name_or_path: string }).model_name_or_path),
    );
  }

  it("names the faithful agent a run's run.json says it ran with, not scripted", async () => {
    expect(await exported({ agent: { kind: "faithful", regime: "tight" } }, [line()])).toEqual(["faithful__rcm-native__switched"]);
    expect(parsePredictionName("faithful__rcm-native__switched")).toEqual({ mode: "native", condition: "switched" });
  });

  it("names the agent of run.json's setting, and a provider's model by its id", async () => {
    expect(await exported({ setting: { agent: "faithful" }, agent: { kind: "faithful" } }, [line()])).toEqual(["faithful__rcm-native__switched"]);
    expect(await exported({ agent: { kind: "model", model: "openai/gpt-4.1" } }, [line()])).toEqual(["openai__gpt-4.1__rcm-native__switched"]);
    expect(await exported({ agent: { kind: "scripted" } }, [line()])).toEqual(["scripted__rcm-native__switched"]);
  });

  it("names each line's agent from its setting, before run.json's", async () => {
    const setting: RunSetting = {
      suite: "mini",
      suite_sha256: "0".repeat(64),
      agent: "model",
      model: "openai/gpt-4.1",
      seed: 1,
      budget_ms: 1000,
      max_continuations: 3,
      test_timeout_ms: 1000,
      confidence_threshold: 0.8,
      fallback: "full",
      plugin_version: "0.1.0",
      env: "local",
    };
    expect(await exported({ agent: { kind: "faithful" } }, [line({ setting })])).toEqual(["openai__gpt-4.1__rcm-native__switched"]);
    expect(await exported({ agent: { kind: "scripted" } }, [line({ setting: { ...setting, agent: "faithful", model: undefined } })])).toEqual([
      "faithful__rcm-native__switched",
    ]);
  });

  it("reads the agent from a line's setting or from run.json's agent", () => {
    expect(agentLabel({ agent: "faithful", suite: "mini", seed: 1 })).toBe("faithful");
    expect(agentLabel({ agent: "model", model: "anthropic/claude" })).toBe("anthropic__claude");
    expect(agentLabel({ kind: "scripted", regime: "roomy" })).toBe("scripted");
    expect(agentLabel({ kind: "model" })).toBeUndefined();
    expect(agentLabel("faithful")).toBeUndefined();
  });
});
