import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/kit/errors/rcm-error.js";
import { ROUTERS } from "../../src/plugin/config/options-schema.js";
import { runCli } from "../support/run-cli.js";

describe("opencode-rcm bench", () => {
  it.each([
    [["run", "--out", "o", "--agent", "scripted"], "bench run needs --suite <dir>"],
    [["run", "--modes", "x"], "bench run needs --suite <dir>"],
    [["run", "--suite", "s", "--out", "o"], "bench run needs --agent scripted|faithful or --model provider/model"],
    [["run", "--suite", "s", "--out", "o", "--agent", "scripted", "--model", "a/b"], "not both"],
    [["run", "--suite", "s", "--out", "o", "--model", "gpt"], '--model must be provider/model, got "gpt"'],
    [["run", "--suite", "s", "--out", "o", "--agent", "scripted", "--modes", "native,turbo"], '--modes: unknown mode "turbo"'],
    [["run", "--suite", "s", "--out", "o", "--agent", "scripted", "--concurrency", "0"], "--concurrency must be an integer >= 1"],
    [["run", "--suite", "s", "--out", "o", "--env", "cloud"], '--env must be local or docker, not "cloud"'],
    [["run", "--suite", "s", "--out", "o", "--agent", "scripted", "--regime", "huge"], '--regime must be one of roomy, tight, not "huge"'],
    [["mini", "--regimes", "roomy,huge"], '--regimes: unknown regime "huge" (one of roomy, tight)'],
    [["import-swebench", "--out", "x"], "bench import-swebench needs --instances <file.jsonl> and --out <suite dir>"],
    [["merge", "a"], "bench merge needs <run dirs...> --out <dir>"],
    [["export-predictions", "r", "--condition", "x"], '--condition must be one of uninterrupted, switched, resumed, not "x"'],
    [["report", "r", "--cache-read-price", "2"], '--cache-read-price must be a number in [0, 1] (a cached token\'s price against an uncached one), got "2"'],
    [["mini", "--bogus"], "unknown option --bogus"],
    [["dance"], 'unknown bench subcommand "dance"'],
    [[], "bench needs a subcommand"],
  ])("rejects %j naming the problem", async (args, message) => {
    const { code, stdout, stderr } = await runCli(["bench", ...args]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toContain(message);
    expect(stderr).toMatch(/^opencode-rcm: .* \(usage\)\nRun "opencode-rcm (bench )?--help" for the options\.\n$/);
  });
});

describe("the CLI's help", () => {
  async function help(argv: string[]): Promise<string> {
    const { code, stdout, stderr } = await runCli(argv);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    return stdout;
  }

  it("lists the commands, the error codes and their exit statuses", async () => {
    const text = await help(["--help"]);
    for (const command of ["demo", "route-eval", "memory-eval", "bench", "report", "sessions", "status", "why", "move", "off", "on"])
      expect(text).toMatch(new RegExp(`^ +${command} `, "m"));
    for (const code of Object.keys(ERROR_CODES)) expect(text.replace(/\s+/g, " ")).toContain(code);
  });

  it("shows a command's options with their allowed values from the code's own lists", async () => {
    expect(await help(["route-eval", "--help"])).toContain(`--router=<${ROUTERS.join("|")}>`);
    const run = await help(["bench", "run", "--help"]);
    expect(run).toContain("--modes=<native,router,memory,full>");
    expect(run).toContain("--suite=<dir>");
    expect(await help(["bench", "--help"])).toMatch(/^ +import-swebench +Turn SWE-bench instances/m);
  });
});
