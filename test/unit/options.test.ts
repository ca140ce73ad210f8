import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderJsonSchema } from "../../src/dev/schemas/options-json-schema.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { envLayer } from "../../src/plugin/config/env-layer.js";
import { loadOptions, tupleLayer } from "../../src/plugin/config/load-options.js";
import { describeProblem } from "../../src/plugin/config/option-problem.js";
import { auxSourceOf, DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { resolveOptions } from "../../src/plugin/config/resolve-options.js";
import { makeTempDir } from "../support/temp-dir.js";

const resolve = (tuple: unknown, env: Record<string, string> = {}) => resolveOptions([tupleLayer(tuple), envLayer(env)]);

describe("options from the tuple and RCM_* variables", () => {
  it("gives the documented defaults when nothing is set", () => {
    const { options, problems } = resolve(undefined);
    expect(problems).toEqual([]);
    expect(options).toEqual(DEFAULT_OPTIONS);
    expect(options).toMatchObject({ mode: "full", confidenceThreshold: 0.8, router: "lexical", notify: "toast", debug: false });
    expect(options.aux).toEqual({ apiKeyEnv: "RCM_AUX_API_KEY", timeoutMs: 20000, cooldownMs: 60000 });
  });

  it("reads the options tuple", () => {
    const { options, problems } = resolve({
      mode: "router",
      confidenceThreshold: 0.9,
      aux: { baseURL: "http://127.0.0.1:9/v1", model: "m" },
      debug: true,
      notify: "off",
    });
    expect(problems).toEqual([]);
    expect(options).toMatchObject({ mode: "router", confidenceThreshold: 0.9, debug: true, notify: "off" });
    expect(options.aux).toEqual({ baseURL: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "RCM_AUX_API_KEY", timeoutMs: 20000, cooldownMs: 60000 });
  });

  it("lets the model and hybrid routers use OpenCode's own models with no other setting", () => {
    for (const router of ["model", "hybrid"] as const) {
      const { options, problems } = resolve({ router });
      expect(problems).toEqual([]);
      expect(options).toMatchObject({ mode: "full", router });
      expect(auxSourceOf(options.aux)).toBe("opencode");
    }
  });

  it("drops only the value a rule across keys rejects: the router falls back to lexical, the rest stays", () => {
    const { options, problems } = resolve({ router: "model", aux: { source: "endpoint" }, confidenceThreshold: 0.9 });
    expect(options).toMatchObject({ mode: "full", router: "lexical", confidenceThreshold: 0.9 });
    expect(problems).toEqual([
      expect.objectContaining({ kind: "invalid", key: "router", where: "opencode.json plug-in options (router)", instead: 'the default "lexical"' }),
    ]);
    expect(describeProblem(problems[0]!)).toContain("aux.baseURL");
  });

  it("wants an OpenCode model written provider/model", () => {
    const { options, problems } = resolve({ router: "hybrid", aux: { model: "gpt-4o-mini" } });
    expect(problems).toEqual([expect.objectContaining({ key: "aux.model", message: expect.stringContaining("provider/model") })]);
    expect(options.router).toBe("hybrid");
    expect(options.aux.model).toBeUndefined();
    expect(resolve({ router: "hybrid", aux: { model: "openai/gpt-4o-mini" } }).problems).toEqual([]);
  });

  it("lets RCM_* variables override the tuple", () => {
    const { options, problems } = resolve(
      { mode: "router" },
      { RCM_MODE: "memory", RCM_CONFIDENCE_THRESHOLD: "0.5", RCM_DEBUG: "1", RCM_AUX_MODEL: "glm", RCM_STATE_DIR: "/tmp/s", RCM_NOTIFY: "off" },
    );
    expect(problems).toEqual([]);
    expect(options).toMatchObject({ mode: "memory", confidenceThreshold: 0.5, debug: true, stateDir: "/tmp/s", notify: "off" });
    expect(options.aux.model).toBe("glm");
  });

  it("drops only a bad value: mode turbo falls back to the default, the other keys still apply", () => {
    const { options, problems } = resolve({ mode: "turbo", confidenceThreshold: 0.7, debug: true });
    expect(options).toMatchObject({ mode: "full", confidenceThreshold: 0.7, debug: true });
    expect(problems).toHaveLength(1);
    expect(describeProblem(problems[0]!)).toMatch(/^opencode\.json plug-in options \(mode\): invalid mode = "turbo": .*; using the default "full"$/);
  });

  it("reports a typo with the closest known key and changes nothing else", () => {
    const { options, problems } = resolve({ confidenceTreshold: 0.7, mode: "router" });
    expect(options).toMatchObject({ mode: "router", confidenceThreshold: 0.8 });
    expect(problems).toEqual([expect.objectContaining({ kind: "unknown", key: "confidenceTreshold", suggestion: "confidenceThreshold" })]);
    expect(describeProblem(problems[0]!)).toBe(
      "opencode.json plug-in options (confidenceTreshold): unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored",
    );
  });

  it("suggests nested keys, and the group a top-level key belongs to", () => {
    expect(resolve({ aux: { timeout: 5 } }).problems[0]).toMatchObject({ key: "aux.timeout", suggestion: "aux.timeoutMs" });
    expect(resolve({ keepRecent: 3 }).problems[0]).toMatchObject({ key: "keepRecent", suggestion: "memory.keepRecent" });
    expect(resolve({ colour: "blue" }).problems[0]).toMatchObject({ kind: "unknown", key: "colour" });
    expect(resolve({ colour: "blue" }).problems[0]?.suggestion).toBeUndefined();
  });

  it("names the environment variable that set a bad value", () => {
    const { options, problems } = resolve({ confidenceThreshold: 0.6 }, { RCM_CONFIDENCE_THRESHOLD: "high" });
    expect(problems[0]).toMatchObject({
      where: "RCM_CONFIDENCE_THRESHOLD",
      value: "high",
      instead: "the value from opencode.json plug-in options (confidenceThreshold)",
    });
    expect(options.confidenceThreshold).toBe(0.6);
  });

  it("rejects a threshold outside [0, 1] and options that are not an object", () => {
    expect(resolve({ confidenceThreshold: 1.5 }).problems[0]).toMatchObject({ key: "confidenceThreshold", value: 1.5 });
    const { options, problems } = resolve("full");
    expect(options).toEqual(DEFAULT_OPTIONS);
    expect(problems[0]).toMatchObject({ key: "(options)", value: "full" });
  });
});

describe("the config file chain", () => {
  const setUp = async () => {
    const temp = await makeTempDir("rcm-options");
    const home = join(temp.path, "home");
    const xdgConfig = join(temp.path, "xdg");
    const worktree = join(temp.path, "repo");
    const directory = join(worktree, "packages", "app");
    await mkdir(join(xdgConfig, "opencode"), { recursive: true });
    await mkdir(join(worktree, ".opencode"), { recursive: true });
    await mkdir(directory, { recursive: true });
    return { temp, home, xdgConfig, worktree, directory };
  };

  it("reads the user's rcm.jsonc, then the nearest .opencode/rcm.jsonc, then the tuple, then RCM_*", async () => {
    const { temp, home, xdgConfig, worktree, directory } = await setUp();
    await writeFile(
      join(xdgConfig, "opencode", "rcm.jsonc"),
      `{\n  "$schema": "https://unpkg.com/opencode-rcm/rcm.schema.json",\n  // the user's defaults\n  "mode": "router",\n  "confidenceThreshold": 0.9,\n  "notify": "off",\n  "debug": true,\n}\n`,
    );
    await writeFile(join(worktree, ".opencode", "rcm.jsonc"), `{ /* this project */ "confidenceThreshold": 0.85, "memory": { "keepRecent": 4 } }`);
    const loaded = await loadOptions({ tuple: { notify: "toast" }, directory, worktree, env: { XDG_CONFIG_HOME: xdgConfig, RCM_DEBUG: "0" }, home });
    expect(loaded.problems).toEqual([]);
    expect(loaded.files).toEqual([join(xdgConfig, "opencode", "rcm.jsonc"), join(worktree, ".opencode", "rcm.jsonc")]);
    expect(loaded.options).toMatchObject({ mode: "router", confidenceThreshold: 0.85, notify: "toast", debug: false, memory: { keepRecent: 4 } });
    await temp.remove();
  });

  it("falls back to ~/.config without XDG_CONFIG_HOME, and reads nothing when there are no files", async () => {
    const { temp, home, worktree, directory } = await setUp();
    expect((await loadOptions({ tuple: undefined, directory, worktree, env: {}, home })).files).toEqual([]);
    await mkdir(join(home, ".config", "opencode"), { recursive: true });
    await writeFile(join(home, ".config", "opencode", "rcm.jsonc"), `{"mode": "memory"}`);
    const loaded = await loadOptions({ tuple: undefined, directory, worktree, env: {}, home });
    expect(loaded.options.mode).toBe("memory");
    await temp.remove();
  });

  it("names the file and line of a bad value and of an unknown key, and keeps the rest of the file", async () => {
    const { temp, home, xdgConfig, worktree, directory } = await setUp();
    const file = join(worktree, ".opencode", "rcm.jsonc");
    await writeFile(file, `{\n  "mode": "turbo",\n  // a typo\n  "confidenceTreshold": 0.7,\n  "router": "lexical",\n  "aux": { "timeoutMs": 5 }\n}\n`);
    const loaded = await loadOptions({ tuple: undefined, directory, worktree, env: { XDG_CONFIG_HOME: xdgConfig }, home });
    expect(loaded.problems.map(describeProblem)).toEqual([
      expect.stringMatching(new RegExp(`^${escapeRegExp(file)}:2: invalid mode = "turbo": .*; using the default "full"$`)),
      `${file}:4: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored`,
      expect.stringMatching(new RegExp(`^${escapeRegExp(file)}:6: invalid aux\\.timeoutMs = 5: .*; using the default 20000$`)),
    ]);
    expect(loaded.options).toMatchObject({ mode: "full", confidenceThreshold: 0.8, router: "lexical", aux: { timeoutMs: 20000 } });
    await temp.remove();
  });

  it("ignores a file that is not JSONC, naming its line and column, and leaves it as it was", async () => {
    const { temp, home, xdgConfig, worktree, directory } = await setUp();
    const file = join(xdgConfig, "opencode", "rcm.jsonc");
    const text = `{\n  "mode": "router"\n  "debug": true\n}\n`;
    await writeFile(file, text);
    const loaded = await loadOptions({ tuple: { confidenceThreshold: 0.9 }, directory, worktree, env: { XDG_CONFIG_HOME: xdgConfig }, home });
    expect(loaded.problems.map(describeProblem)).toEqual([`${file}:3:3: not valid JSONC (CommaExpected); the file is ignored`]);
    expect(loaded.options).toMatchObject({ mode: "full", confidenceThreshold: 0.9 });
    expect(await readFile(file, "utf8")).toBe(text);
    await temp.remove();
  });
});

describe("the published JSON schema", () => {
  it("is the one generated from the zod schema (run npm run schema after changing an option)", async () => {
    expect(await readFile(join(packageRoot(), "rcm.schema.json"), "utf8")).toBe(renderJsonSchema());
  });

  it("lists every option with its default and allows $schema in a file", () => {
    const schema = JSON.parse(renderJsonSchema());
    expect(Object.keys(schema.properties).sort()).toEqual([
      "$schema",
      "aux",
      "confidenceThreshold",
      "debug",
      "fallback",
      "memory",
      "mode",
      "notify",
      "resume",
      "router",
      "stateDir",
    ]);
    expect(schema.properties.mode.default).toBe("full");
    expect(schema.properties.fallback.default).toBe("full");
    expect(schema.properties.aux.properties.timeoutMs.default).toBe(20000);
    expect(schema.properties.resume.properties.maxAgeDays.default).toBe(14);
    expect(schema.additionalProperties).toBe(false);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
