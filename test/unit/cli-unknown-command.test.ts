import { describe, expect, it } from "vitest";
import { editDistance, suggestCommand, unknownCommandProblem } from "../../src/cli/unknown-command.js";
import { runCli } from "../support/run-cli.js";

/** The problem the CLI prints for `argv`, without its prefix, code and hint. */
async function problem(argv: string[]): Promise<string> {
  const { code, stderr } = await runCli(argv);
  expect(code).toBe(2);
  return /^opencode-rcm: (.*) \(usage\)\n/.exec(stderr)?.[1] ?? stderr;
}

describe("an unknown CLI command", () => {
  it.each([
    [["stauts"], 'unknown command "stauts"; did you mean "status"?'],
    [["sesions"], 'unknown command "sesions"; did you mean "sessions"?'],
    [["Status"], 'unknown command "Status"; did you mean "status"?'],
    [["hlep"], 'unknown command "hlep"; did you mean "help"?'],
    [["run", "--suite", "s"], 'unknown command "run"; did you mean "bench run"?'],
    [["bench", "rnu"], 'unknown bench subcommand "rnu"; did you mean "bench run"?'],
    [["bench", "chekc", "fixtures/bench-small"], 'unknown bench subcommand "chekc"; did you mean "bench check"?'],
    [["bench", "make-session"], 'unknown bench subcommand "make-session"; did you mean "bench make-sessions"?'],
  ])("%j gets a did-you-mean", async (argv, message) => {
    expect(await problem(argv)).toBe(message);
  });

  it.each([["deploy"], ["xyz"], ["bench", "dance"], ["toString"], ["bench", "constructor"]])("%j, near no command, gets none", async (...argv) => {
    expect(await problem(argv)).toMatch(/^unknown (command|bench subcommand) "(deploy|xyz|dance|toString|constructor)"$/);
  });

  it("is a usage error, so the CLI adds where the help is", async () => {
    expect(await runCli(["stauts"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'opencode-rcm: unknown command "stauts"; did you mean "status"? (usage)\nRun "opencode-rcm --help" for the options.\n',
    });
  });
});

describe("the suggestion", () => {
  it("counts a swap of two neighbours as one edit", () => {
    expect(editDistance("stauts", "status")).toBe(1);
    expect(editDistance("status", "status")).toBe(0);
    expect(editDistance("", "on")).toBe(2);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("allows one edit in a word of three letters or fewer, two in a longer one", () => {
    const known = ["why", "off", "on", "tasks"];
    expect(suggestCommand({ typed: "wyh", known, grouped: {} })).toBe("why");
    expect(suggestCommand({ typed: "xyz", known, grouped: {} })).toBeUndefined();
    expect(suggestCommand({ typed: "taks", known, grouped: {} })).toBe("tasks");
  });

  it("names the group for a subcommand typed on its own, and the nearest name first", () => {
    expect(unknownCommandProblem({ typed: "merge", known: ["status"], grouped: { bench: ["merge"] } })).toBe(
      'unknown command "merge"; did you mean "bench merge"?',
    );
    expect(suggestCommand({ typed: "of", known: ["off", "on", "of-course"], grouped: {} })).toBe("off");
  });
});
