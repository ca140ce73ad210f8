import { describe, expect, it } from "vitest";
import { runCommandLine } from "../../src/cli/command-line.js";
import { type ArgSpecs, type Command, defineCli, type Parsed, renderHelp } from "../../src/cli/declare.js";
import { demoCommand } from "../../src/cli/demo-command.js";
import { moveSessionCommand } from "../../src/cli/session-commands.js";
import { MODES } from "../../src/plugin/config/options-schema.js";

/** `command` run as citty dispatches it from a root of its own: `<name> ...argv`. */
function runDeclared(command: Command, name: string, argv: readonly string[]): Promise<number> {
  const root = { name: "t", description: "A root to try.", subCommands: { [name]: command } };
  const quiet = { write: () => undefined };
  return runCommandLine(root, [name, ...argv], { io: { stdout: quiet, stderr: quiet }, env: {} });
}

describe("a declared command", () => {
  let parsed: Parsed<ArgSpecs> | undefined;
  const command = defineCli({
    name: "try",
    description: "A command to try.",
    args: {
      paths: { type: "positional", variadic: true, description: "files" },
      mode: {
        type: "enum",
        options: MODES,
        default: "full",
        description: "plug-in mode",
        invalid: (flag, options, value) => `${flag}: ${value} not in ${options.join("/")}`,
      },
      count: { type: "number", integer: true, min: 1, default: 3, description: "how many" },
      json: { type: "boolean", description: "as JSON" },
      out: { type: "string", required: true, valueHint: "dir", description: "where" },
    },
    run: async (args) => {
      parsed = args;
      return 0;
    },
  });
  const parseDeclared = async (name: string, argv: string[]) => {
    await runDeclared(command, name, argv);
    return parsed;
  };

  it("parses values with their defaults and types", async () => {
    const args = await parseDeclared("try", ["a", "--out", "o", "b", "--count", "5"]);
    expect(args).toEqual({ paths: ["a", "b"], mode: "full", count: 5, json: false, out: "o" });
  });

  it("rejects unknown options, bad values and numbers, and missing required options with their messages", async () => {
    await expect(parseDeclared("try", ["--out", "o", "--nope"])).rejects.toThrow("unknown option --nope");
    await expect(parseDeclared("try", ["--out"])).rejects.toThrow("Option '--out <value>' argument missing");
    await expect(parseDeclared("try", ["--out", "--json"])).rejects.toThrow("Option '--out' argument is ambiguous.");
    await expect(parseDeclared("try", ["--out", "o", "--json=yes"])).rejects.toThrow("Option '--json' does not take an argument");
    await expect(parseDeclared("try", ["--out", "o", "--mode", "x"])).rejects.toThrow(`--mode: x not in ${MODES.join("/")}`);
    await expect(parseDeclared("try", ["--out", "o", "--count", "0.5"])).rejects.toThrow('--count must be an integer >= 1, got "0.5"');
    await expect(parseDeclared("try", ["--mode", "x"])).rejects.toThrow("try needs --out <dir>");
  });

  it("takes positional arguments as declared: a required one always, an optional one only when there are more (move)", async () => {
    const given: unknown[] = [];
    const move = defineCli({ ...moveSessionCommand, run: async (args) => given.push([args.session, args.target]) && 0 });
    for (const argv of [["t2"], ["3..", "t2"], ["ses_1", "t2"], ["latest", "3", "#5", "new"], ["t3", "t2", "--dir", "d"]])
      await runDeclared(move, "move", argv);
    expect(given).toEqual([
      [undefined, ["t2"]],
      [undefined, ["3..", "t2"]],
      ["ses_1", ["t2"]],
      ["latest", ["3", "#5", "new"]],
      ["t3", ["t2"]],
    ]);
    await expect(runDeclared(move, "move", [])).rejects.toThrow("move takes [<session>] [requests] <task|new>, got nothing: e.g.");
    await expect(runDeclared(move, "move", ["s", "3", "x"])).rejects.toThrow("got s 3 x: e.g.");
  });

  it("reads a flag named no-x as given (citty reads --no-x as x = false)", async () => {
    const flags: boolean[] = [];
    const demo = defineCli({ ...demoCommand, run: async (args) => flags.push(args["no-debug"]) && 0 });
    await runDeclared(demo, "demo", ["--no-debug"]);
    await runDeclared(demo, "demo", ["--json"]);
    expect(flags).toEqual([true, false]);
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
