import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/harness/package-root.js";
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

  it("prints a usage error as its line and one hint, and a command's own help on --help", async () => {
    const failed = await run(process.execPath, [CLI, "route-eval", "--bogus"]).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stdout).toBe("");
    expect(failed?.stderr.trim().split("\n")).toEqual(["opencode-rcm: unknown option --bogus (usage)", 'Run "opencode-rcm route-eval --help" for the options.']);
    const unknown = await run(process.execPath, [CLI, "frobnicate"]).then(
      () => undefined,
      (error: { stderr: string }) => error,
    );
    expect(unknown?.stderr.trim().split("\n")).toEqual(['opencode-rcm: unknown command "frobnicate" (usage)', 'Run "opencode-rcm --help" for the options.']);
    const help = await run(process.execPath, [CLI, "route-eval", "--help"]);
    expect(help.stdout).toMatch(/^ {2}route-eval \[<file\.jsonl \| directory>\.\.\.\]/);
    expect(help.stdout).not.toContain("bench mini");
    const all = await run(process.execPath, [CLI, "--help"]);
    for (const command of ["demo", "route-eval", "memory-eval", "bench mini", "report <run dir>", "sessions [--all]", "move [<session>] <task|new>"]) expect(all.stdout).toContain(command);
  });
});
