import { describe, expect, it } from "vitest";
import { defineCli, parseDeclared, renderHelp } from "../../src/cli/declare.js";
import { MODES } from "../../src/config/options-schema.js";

describe("a declared command", () => {
  const command = defineCli({
    name: "try",
    description: "A command to try.",
    args: {
      paths: { type: "positional", variadic: true, description: "files" },
      mode: { type: "enum", options: MODES, default: "full", description: "plug-in mode", invalid: (flag, options, value) => `${flag}: ${value} not in ${options.join("/")}` },
      count: { type: "number", integer: true, min: 1, default: 3, description: "how many" },
      json: { type: "boolean", description: "as JSON" },
      out: { type: "string", required: true, valueHint: "dir", description: "where" },
    },
    run: async () => 0,
  });

  it("parses values with their defaults and types", () => {
    const args = parseDeclared(command, "try", ["a", "--out", "o", "b", "--count", "5"]);
    expect(args).toMatchObject({ paths: ["a", "b"], _: ["a", "b"], mode: "full", count: 5, json: false, out: "o" });
  });

  it("rejects unknown options, bad values and numbers, and missing required options with their messages", () => {
    expect(() => parseDeclared(command, "try", ["--out", "o", "--nope"])).toThrow("Unknown option '--nope'");
    expect(() => parseDeclared(command, "try", ["--out", "o", "--mode", "x"])).toThrow(`--mode: x not in ${MODES.join("/")}`);
    expect(() => parseDeclared(command, "try", ["--out", "o", "--count", "0.5"])).toThrow('--count must be an integer >= 1, got "0.5"');
    expect(() => parseDeclared(command, "try", ["--mode", "x"])).toThrow("try needs --out <dir>");
  });

  it("renders its help from the declarations", async () => {
    const help = await renderHelp(command, { parent: "opencode-rcm", version: "1.2.3", color: false });
    expect(help).toContain("A command to try. (opencode-rcm try v1.2.3)");
    expect(help).toContain(`--mode=<${MODES.join("|")}>`);
    expect(help).toMatch(/--count=<n> +how many \(Default: 3\)/);
    expect(help).toMatch(/--out=<dir> +where \(Required\)/);
    expect(help).not.toContain("\u001b[");
  });
});
