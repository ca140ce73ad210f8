import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { runCli } from "../support/run-cli.js";

// memory-eval as a user runs it: the CLI's main in this process, and the oracle script (an e2e test: it needs dist/).

const run = promisify(execFile);
const SET = join(packageRoot(), "fixtures", "requirements-register");

describe("opencode-rcm memory-eval --updater model", () => {
  it("rejects the model updater without an endpoint, naming what is missing", async () => {
    const failure = await runCli(["memory-eval", SET, "--updater", "model"], { PATH: process.env.PATH ?? "" });
    expect(failure).toMatchObject({ code: 2, stdout: "" });
    expect(failure.stderr).toContain("aux.baseURL");
  });

  it("keeps every gold clause through the model updater's rules when its model is always right (a real HTTP endpoint on loopback)", async () => {
    const { stdout } = await run(process.execPath, [join(packageRoot(), "scripts", "memory-eval-oracle.mjs"), SET]);
    expect(stdout).toMatch(/^Requirements kept as constraints \(model \(an always-right stand-in\) updater\)/);
    const all = stdout.split("\n").find((line) => line.startsWith("| **all** |"));
    expect(all).toMatch(/\| 100\.0% \| 100\.0% \|$/);
    expect(stdout).toMatch(/oracle: (\d+) calls, 0 it could not place/);
  });
});
