import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { type OptionKinds, strictOptionsProblem } from "../../src/cli/strict-options.js";

// citty parses each command line once, leniently; strictOptionsProblem adds the strictness the CLI
// had when node:util's strict parseArgs ran first, with its messages. node:util is the oracle here.

/** What node:util's strict parse says of `argv`, as the CLI printed it (its unknown-option message shortened). */
function nodeProblem(argv: readonly string[], kinds: OptionKinds): string | undefined {
  const options = Object.fromEntries(Object.entries(kinds.options).map(([name, type]) => [name, { type }]));
  try {
    parseArgs({ args: [...argv], options, allowPositionals: kinds.positionals, strict: true });
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    return unknown ? `unknown option ${unknown[1]}` : message;
  }
}

const OPTIONS = { out: "string", mode: "string", json: "boolean", "no-debug": "boolean" } as const;
const WORDS = ["--out", "--out=o", "--out=", "o", "-", "--", "--json", "--json=1", "--json=", "--no-debug", "--no-json", "--bogus", "--bogus=1"];
const ODD = ["-x", "-abc", "-x=1", "-1", "---", "--=x", "--=a=b", "--mode", "--mode=-x", "-o", "--dryRun", "", "--out=a=b", "--JSON"];

/** Every line of up to three words from `words`. */
function lines(words: readonly string[]): string[][] {
  const all: string[][] = [[]];
  for (let length = 1; length <= 3; length += 1) {
    const shorter = all.filter((line) => line.length === length - 1);
    for (const line of shorter) for (const word of words) all.push([...line, word]);
  }
  return all;
}

describe("the strictness added to citty's parse", () => {
  it.each([true, false])("says what node:util's strict parse said, first problem first (positionals allowed: %s)", (positionals) => {
    const kinds = { options: OPTIONS, positionals };
    const argvs = [...lines(WORDS), ...ODD.flatMap((word) => [[word], [word, "o"], ["o", word, "--json"]])];
    const differing = argvs.filter((argv) => strictOptionsProblem(argv, kinds) !== nodeProblem(argv, kinds));
    expect(differing).toEqual([]);
    expect(argvs.length).toBeGreaterThan(2000);
  });

  it("names the option in each problem", () => {
    const kinds = { options: OPTIONS, positionals: false };
    expect(strictOptionsProblem(["--json", "--bogus"], kinds)).toBe("unknown option --bogus");
    expect(strictOptionsProblem(["--out"], kinds)).toBe("Option '--out <value>' argument missing");
    expect(strictOptionsProblem(["--json=yes"], kinds)).toBe("Option '--json' does not take an argument");
    expect(strictOptionsProblem(["file"], kinds)).toBe("Unexpected argument 'file'. This command does not take positional arguments");
    expect(strictOptionsProblem(["--out", "o", "--no-debug", "--json"], kinds)).toBeUndefined();
  });
});
