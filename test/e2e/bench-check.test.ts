import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { runCli } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

const MINI = join(packageRoot(), "fixtures", "switch-mini");
const TASK = "minicfg__minicfg-1";

/** `opencode-rcm bench check ...` through the CLI's main in this process: its output and exit status (real git and pytest). */
function check(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(["bench", "check", ...args], process.env);
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-check-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("bench check", () => {
  it("finds the bundled mini suite's ground truth sound: each task's tests fail before its reference patch and pass after it", async () => {
    const result = await check([MINI]);
    expect(result.stdout).toBe("15 tasks, 30 sessions checked (cheap checks, and tests run for 15 of them): ok\n");
    expect(result.stderr).toContain(`[check] ${TASK}: ok`);
    expect(result.code).toBe(0);
  }, 300_000);

  it("catches a FAIL_TO_PASS typo in a file the test command runs, which only running the tests shows", async () => {
    const suite = join(temp.path, "typo");
    await cp(MINI, suite, { recursive: true });
    const file = join(suite, "tasks", TASK, "task.json");
    const task = JSON.parse(await readFile(file, "utf8")) as { FAIL_TO_PASS: string[] };
    task.FAIL_TO_PASS[2] = "tests/test_flag.py::test_nonexistent";
    await writeFile(file, `${JSON.stringify(task, null, 2)}\n`);

    expect((await check([suite, "--cheap"])).code).toBe(0);
    const result = await check([suite, "--tasks", TASK]);
    expect(result.stdout).toBe(
      `${file}: FAIL_TO_PASS.2: the test command does not run tests/test_flag.py::test_nonexistent (it is in no run's output: with the test patch alone, with the reference patch)\n` +
        "15 tasks, 30 sessions checked (cheap checks, and tests run for 1 of them): 1 problem\n",
    );
    expect(result.code).toBe(1);
    const json = JSON.parse((await check([suite, "--tasks", TASK, "--json"])).stdout) as { ok: boolean; tested: string[]; problems: { field: string }[] };
    expect(json).toMatchObject({ ok: false, tested: [TASK], problems: [{ file, line: 0, field: "FAIL_TO_PASS.2" }] });
  }, 300_000);
});
