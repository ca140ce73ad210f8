import { describe, expect, it } from "vitest";
import { auxSourceOf, describeProblem, resolveOptions } from "../../src/plugin/options.js";

describe("resolveOptions", () => {
  it("gives the documented defaults when nothing is set", () => {
    const { options, problems } = resolveOptions(undefined, {});
    expect(problems).toEqual([]);
    expect(options).toMatchObject({ mode: "full", confidenceThreshold: 0.8, debug: false });
    expect(options.aux.apiKeyEnv).toBe("RCM_AUX_API_KEY");
  });

  it("reads the options tuple", () => {
    const { options } = resolveOptions(
      { mode: "router", confidenceThreshold: 0.9, aux: { baseURL: "http://127.0.0.1:9/v1", model: "m" }, debug: true },
      {},
    );
    expect(options).toMatchObject({ mode: "router", confidenceThreshold: 0.9, debug: true });
    expect(options.aux).toEqual({ baseURL: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "RCM_AUX_API_KEY", timeoutMs: 20000, cooldownMs: 60000 });
  });

  it("lets the model and hybrid routers use OpenCode's own models with no other setting", () => {
    for (const router of ["model", "hybrid"] as const) {
      const { options, problems } = resolveOptions({ router }, {});
      expect(problems).toEqual([]);
      expect(options).toMatchObject({ mode: "full", router });
      expect(auxSourceOf(options.aux)).toBe("opencode");
    }
    expect(auxSourceOf(resolveOptions({ router: "hybrid", aux: { baseURL: "http://127.0.0.1:9/v1", model: "m" } }, {}).options.aux)).toBe("endpoint");
  });

  it("rejects the endpoint source without an endpoint, naming the router option", () => {
    const { options, problems } = resolveOptions({ router: "model", aux: { source: "endpoint" } }, {});
    expect(options.mode).toBe("native");
    expect(problems).toEqual([expect.objectContaining({ key: "router", message: expect.stringContaining("aux.baseURL") })]);
  });

  it("wants an OpenCode model written provider/model", () => {
    const { problems } = resolveOptions({ router: "hybrid", aux: { model: "gpt-4o-mini" } }, {});
    expect(problems).toEqual([expect.objectContaining({ key: "aux.model", message: expect.stringContaining("provider/model") })]);
    expect(resolveOptions({ router: "hybrid", aux: { model: "openai/gpt-4o-mini" } }, {}).problems).toEqual([]);
  });

  it("takes the router and the aux timeout from the environment", () => {
    const { options, problems } = resolveOptions({}, {
      RCM_ROUTER: "model",
      RCM_AUX_BASE_URL: "http://127.0.0.1:9/v1",
      RCM_AUX_MODEL: "m",
      RCM_AUX_TIMEOUT_MS: "1500",
    });
    expect(problems).toEqual([]);
    expect(options).toMatchObject({ router: "model", aux: { timeoutMs: 1500 } });
  });

  it("lets RCM_* variables override the tuple", () => {
    const { options, problems } = resolveOptions(
      { mode: "router" },
      { RCM_MODE: "memory", RCM_CONFIDENCE_THRESHOLD: "0.5", RCM_DEBUG: "1", RCM_AUX_MODEL: "glm", RCM_STATE_DIR: "/tmp/s" },
    );
    expect(problems).toEqual([]);
    expect(options).toMatchObject({ mode: "memory", confidenceThreshold: 0.5, debug: true, stateDir: "/tmp/s" });
    expect(options.aux.model).toBe("glm");
  });

  it("falls back to native mode and names the key and value of an invalid option", () => {
    const { options, problems } = resolveOptions({ mode: "turbo" }, {});
    expect(options.mode).toBe("native");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ key: "mode", value: "turbo" });
    expect(describeProblem(problems[0]!)).toMatch(/^invalid option mode = "turbo": /);
  });

  it("names an invalid nested option by its dotted path", () => {
    const { problems } = resolveOptions({ aux: { baseURL: "not a url" } }, {});
    expect(problems.map((problem) => [problem.key, problem.value])).toEqual([["aux.baseURL", "not a url"]]);
  });

  it("reports unknown keys, so a typo is not silently ignored", () => {
    const { options, problems } = resolveOptions({ confidenceTreshold: 0.7 }, {});
    expect(options.mode).toBe("native");
    expect(problems).toEqual([{ key: "confidenceTreshold", value: 0.7, message: "unknown option" }]);
  });

  it("names the environment variable when it is the source of the bad value", () => {
    const { problems } = resolveOptions({}, { RCM_CONFIDENCE_THRESHOLD: "high" });
    expect(problems[0]?.key).toBe("RCM_CONFIDENCE_THRESHOLD (confidenceThreshold)");
    expect(problems[0]?.value).toBe("high");
  });

  it("rejects a threshold outside [0, 1]", () => {
    const { problems } = resolveOptions({ confidenceThreshold: 1.5 }, {});
    expect(problems[0]).toMatchObject({ key: "confidenceThreshold", value: 1.5 });
  });

  it("rejects options that are not an object", () => {
    const { options, problems } = resolveOptions("full", {});
    expect(options.mode).toBe("native");
    expect(problems[0]).toMatchObject({ key: "(options)", value: "full" });
  });
});
