import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RcmError } from "../../src/kit/errors/rcm-error.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { loadTasks } from "../../src/lab/bench/suite/load-suite.js";
import { importSwebench } from "../../src/lab/bench/swebench/import-swebench.js";
import { makeTempDir } from "../support/temp-dir.js";

const SMALL = join(packageRoot(), "fixtures", "bench-small");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let instances: string;

beforeEach(async () => {
  temp = await makeTempDir("rcm-check-import");
  // bench-small's tasks as SWE-bench instances: their PASS_TO_PASS tests are in tests/test_existing.py, which no test patch touches.
  const tasks = await loadTasks(SMALL);
  instances = join(temp.path, "instances.jsonl");
  const lines = tasks.map((task) => ({ ...task, problem_statement: task.stages[0]?.request, stages: undefined, test_cmd: undefined, repo_bundle: undefined }));
  await writeFile(instances, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
});
afterEach(async () => {
  await temp.remove();
});

describe("import-swebench's check of the test ids", () => {
  it("refuses instances whose PASS_TO_PASS tests are outside the test patch's files, naming each and writing nothing", async () => {
    const out = join(temp.path, "suite");
    const failure = await importSwebench({ instances, out }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RcmError);
    const lines = (failure as RcmError).message.split("\n");
    expect(lines[0]).toBe(
      `${instances}:1: PASS_TO_PASS.0: "tests/test_existing.py::test_slugify_lowercases_a_word": the test command does not run tests/test_existing.py (it runs tests/test_slug.py), so this test can never pass`,
    );
    expect(lines.filter((line) => line.includes(": PASS_TO_PASS."))).toHaveLength(21);
    expect(lines.at(-1)).toMatch(/^Nothing written\. SWE-bench's harness runs only the test patch's files.*--test-cmd '<command> <their files> \{tests\}'/);
    expect(await stat(out).catch(() => undefined)).toBeUndefined();
  });

  it("imports them when --test-cmd runs those files too", async () => {
    const out = join(temp.path, "suite");
    const result = await importSwebench({ instances, out, testCmd: "python -m pytest -rA tests/test_existing.py {tests}" });
    expect(result.tasks).toBe(3);
  });
});
