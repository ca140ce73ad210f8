import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";

const run = promisify(execFile);

// The bundled suite's own checks, with real git and pytest: each task's base, reference patch
// and wrong solutions, and the faithful agent's files (its variants keep the existing tests
// passing; the confusable pair's variant fails the task).
describe("the bundled mini suite's checks", () => {
  it("pass, the confusable pair's leak included", async () => {
    const { stdout } = await run(process.execPath, [join(packageRoot(), "scripts", "check-switch-mini.mjs")], {
      cwd: packageRoot(),
      maxBuffer: 10 * 1024 * 1024,
      timeout: 240_000,
    });
    expect(stdout).toContain("switch-mini: all checks passed");
    expect(stdout).toMatch(/ok {3}minicfg__minicfg-4: stage-3 with minicfg__minicfg-3\/stage-3's requirement does not resolve it/);
    expect(stdout).toMatch(/ok {3}minicfg__minicfg-1: stage-2 without stage-1 passes the existing tests; \d+ held-out tests fail/);
  }, 300_000);
});
