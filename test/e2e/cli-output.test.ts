import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { runCli } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const CLI = join(packageRoot(), "dist", "cli.js");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-cli-output");
});
afterEach(async () => {
  await temp.remove();
});

describe("the CLI's output", () => {
  it("reaches a slow pipe reader whole: it exits only once stdout has drained (past the pipe's 64 KiB)", async () => {
    const file = join(temp.path, "verbose.txt");
    await run("sh", ["-c", `"${process.execPath}" "${CLI}" route-eval --verbose > "${file}"`]);
    const size = (await stat(file)).size;
    expect(size).toBeGreaterThan(64 * 1024);
    const piped = await run("sh", ["-c", `"${process.execPath}" "${CLI}" route-eval --verbose | (sleep 2; cat) | wc -c`]);
    expect(Number(piped.stdout.trim())).toBe(size);
  });

  it("exits through the bin with the status main returns, a usage error on stderr alone", async () => {
    const failed = await run(process.execPath, [CLI, "route-eval", "--bogus"]).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stdout).toBe("");
    expect(failed?.stderr.trim().split("\n")).toEqual([
      "opencode-rcm: unknown option --bogus (usage)",
      'Run "opencode-rcm route-eval --help" for the options.',
    ]);
  });

  it("prints a usage error as its line and one hint, and a command's own help on --help", async () => {
    expect(await runCli(["route-eval", "--bogus"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'opencode-rcm: unknown option --bogus (usage)\nRun "opencode-rcm route-eval --help" for the options.\n',
    });
    const unknown = await runCli(["frobnicate"]);
    expect(unknown.stderr.trim().split("\n")).toEqual(['opencode-rcm: unknown command "frobnicate" (usage)', 'Run "opencode-rcm --help" for the options.']);
    const help = await runCli(["route-eval", "--help"]);
    expect(help.stdout).toContain("USAGE opencode-rcm route-eval [OPTIONS] [PATHS]");
    expect(help.stdout).toMatch(/--router=<lexical\|model\|hybrid> +model and hybrid use/);
    expect(help.stdout).not.toContain("bench mini");
    expect(help.stdout).not.toContain("\u001b[");
    const all = await runCli(["--help"]);
    for (const command of ["demo", "route-eval", "memory-eval", "bench", "report", "sessions", "move"])
      expect(all.stdout).toMatch(new RegExp(`^ +${command} {4}`, "m"));
    const move = await runCli(["move", "--help"]);
    expect(move.stdout).toContain("USAGE opencode-rcm move [OPTIONS] [SESSION] <TARGET>");
    const mini = await runCli(["bench", "mini", "--help"]);
    expect(mini.stdout).toMatch(/--regimes=<roomy,tight> +the scripted model's windows/);
  });
});
