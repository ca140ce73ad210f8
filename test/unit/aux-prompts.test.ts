import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadPrompt, renderPrompt } from "../../src/plugin/auxiliary/prompts.js";

describe("renderPrompt", () => {
  it("replaces every placeholder with its value", () => {
    const text = renderPrompt("Tasks:\n{{tasks}}\n\nRequest: {{ request }}\n{{tasks}}", { tasks: "a, b", request: "fix it" });
    expect(text).toBe("Tasks:\na, b\n\nRequest: fix it\na, b");
  });

  it("inserts values verbatim, even when they contain placeholders", () => {
    expect(renderPrompt("{{request}}", { request: "keep {{tasks}} and $& as typed" })).toBe("keep {{tasks}} and $& as typed");
  });

  it("throws an error naming a placeholder that has no value", () => {
    expect(() => renderPrompt("{{tasks}} / {{request}}", { tasks: "a" })).toThrow("{{request}}");
  });

  it("does not take inherited object properties for values", () => {
    expect(() => renderPrompt("{{constructor}}", {})).toThrow("{{constructor}}");
  });
});

describe("loadPrompt", () => {
  it("reads prompts/<name>.md from the package root", async () => {
    const expected = await readFile(new URL("../../prompts/README.md", import.meta.url), "utf8");
    await expect(loadPrompt("README")).resolves.toBe(expected);
  });

  it("rejects a prompt that does not exist", async () => {
    await expect(loadPrompt("no-such-prompt")).rejects.toThrow(/no-such-prompt\.md/);
  });

  it("refuses a name that reaches outside prompts/", async () => {
    await expect(loadPrompt("../package")).rejects.toThrow(/invalid prompt name/);
  });
});
