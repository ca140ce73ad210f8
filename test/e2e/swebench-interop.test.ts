import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { loadTasks } from "../../src/lab/bench/suite/load-suite.js";
import { PredictionSchema } from "../../src/lab/bench/swebench/predictions.js";
import { runCliOk } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

const SMALL = join(packageRoot(), "fixtures", "bench-small");
// The bench commands through the CLI's main in this process, with this process's environment (git, python, OPENCODE_BIN).
const bench = (args: readonly string[]) => runCliOk(["bench", ...args], process.env);

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-swebench-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("SWE-bench in and out", () => {
  it("imports instances in the published layout, runs them, exports predictions and reads the harness's reports back", async () => {
    // Three instances written in SWE-bench's field layout (tests as JSON strings, as on Hugging
    // Face), their repository a local bundle, two of them split into stages.
    const tasks = await loadTasks(SMALL);
    const instances = tasks.map((task) => ({
      repo: task.repo,
      instance_id: task.instance_id,
      base_commit: task.base_commit,
      patch: task.patch,
      test_patch: task.test_patch,
      problem_statement: task.stages[0]?.request,
      hints_text: "",
      created_at: "2026-01-01T00:00:00Z",
      version: "0.1",
      FAIL_TO_PASS: JSON.stringify(task.FAIL_TO_PASS),
      PASS_TO_PASS: JSON.stringify(task.PASS_TO_PASS),
      environment_setup_commit: task.base_commit,
    }));
    const instancesFile = join(temp.path, "instances.jsonl");
    await writeFile(instancesFile, instances.map((instance) => `${JSON.stringify(instance)}\n`).join(""));
    const stagesFile = join(temp.path, "stages.jsonl");
    await writeFile(
      stagesFile,
      tasks
        .slice(0, 2)
        .map((task) => `${JSON.stringify({ instance_id: task.instance_id, stages: task.stages })}\n`)
        .join(""),
    );
    const bundles = join(temp.path, "bundles");
    await mkdir(bundles);
    await copyFile(join(SMALL, "repo.bundle"), join(bundles, "minitext__minitext.bundle"));

    const suite = join(temp.path, "suite");
    const imported = await bench([
      "import-swebench",
      "--instances",
      instancesFile,
      "--stages",
      stagesFile,
      "--out",
      suite,
      "--bundles",
      bundles,
      "--test-cmd",
      "python -m pytest -rA -p no:cacheprovider tests/test_existing.py {tests}",
    ]);
    expect(imported.stdout).toContain(`3 tasks (2 with stages) written to ${suite}`);
    const importedTasks = await loadTasks(suite);
    expect(importedTasks.map((task) => [task.instance_id, task.stages.length, task.repo_bundle])).toEqual([
      ["minitext__minitext-1", 2, "repos/minitext__minitext.bundle"],
      ["minitext__minitext-2", 2, "repos/minitext__minitext.bundle"],
      ["minitext__minitext-3", 1, "repos/minitext__minitext.bundle"],
    ]);
    expect(importedTasks[0]?.FAIL_TO_PASS).toEqual(tasks[0]?.FAIL_TO_PASS);
    expect(importedTasks[0]?.test_cmd).toMatch(/^python -m pytest -rA -p no:cacheprovider tests\/test_existing\.py tests\/\S+\.py$/);

    await bench(["make-sessions", "--suite", suite, "--interruptions", "2"]);
    await copyFile(join(SMALL, "agent.json"), join(suite, "agent.json"));
    const out = join(temp.path, "run");
    await bench(["run", "--suite", suite, "--agent", "scripted", "--modes", "native", "--sessions", "2", "--out", out, "--budget-s", "120"]);
    const results = (await readFile(join(out, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    expect(results).toHaveLength(2);
    expect(results.every((line) => line.resolved && line.scored_by === undefined)).toBe(true);

    const exported = await bench(["export-predictions", out]);
    const files = exported.stdout.trim().split("\n");
    expect(files.map((file) => file.slice(out.length + 1))).toEqual(["predictions/native.switched.jsonl", "predictions/native.uninterrupted.jsonl"]);
    const predictions = (await Promise.all(files.map((file) => readFile(file, "utf8")))).flatMap((text) =>
      text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
    for (const prediction of predictions) {
      // Exactly the fields run_evaluation reads.
      expect(Object.keys(prediction).sort()).toEqual(["instance_id", "model_name_or_path", "model_patch"]);
      const parsed = PredictionSchema.parse(prediction);
      expect(parsed.model_patch).toMatch(/^diff --git a\//);
      expect(parsed.model_name_or_path).toMatch(/^scripted__rcm-native__(switched|uninterrupted)$/);
    }

    // The harness's logs for one prediction file: it found the switched focus unresolved.
    const switched = results.find((line) => line.condition === "switched");
    const logs = join(temp.path, "logs", "run_evaluation", "rcm-e2e");
    const instanceDir = join(logs, "scripted__rcm-native__switched", switched?.focus ?? "");
    await mkdir(instanceDir, { recursive: true });
    const report = {
      [switched?.focus ?? ""]: {
        patch_is_None: false,
        patch_exists: true,
        patch_successfully_applied: true,
        resolved: false,
        tests_status: {
          FAIL_TO_PASS: { success: [], failure: ["tests/x.py::test_a"] },
          PASS_TO_PASS: { success: [], failure: [] },
          FAIL_TO_FAIL: { success: [], failure: [] },
          PASS_TO_FAIL: { success: [], failure: [] },
        },
      },
    };
    await writeFile(join(instanceDir, "report.json"), JSON.stringify(report));
    const stray = join(logs, "someone-else", "other__repo-1");
    await mkdir(stray, { recursive: true });
    await writeFile(join(stray, "report.json"), JSON.stringify({ "other__repo-1": { resolved: true } }));

    const back = await bench(["import-reports", out, join(temp.path, "logs")]);
    expect(back.stdout).toContain("1 results updated from 2 report.json files");
    expect(back.stdout).toContain(`warning: no result of this run for ${join(stray, "report.json")}`);
    const after = (await readFile(join(out, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    const updated = after.find((line) => line.condition === "switched");
    expect(updated).toMatchObject({ resolved: false, failure_class: "implementation", scored_by: "swebench" });
    expect(after.find((line) => line.condition === "uninterrupted")).toMatchObject({ resolved: true, failure_class: "resolved" });
    expect(await readFile(join(out, "report.md"), "utf8")).toMatch(/\| native \| 100\.0% \(1\/1\) \| 0\.0% \(0\/1\) \|/);
    expect(JSON.parse(await readFile(join(out, "sessions", updated?.session_id ?? "", "native", "swebench-report.json"), "utf8"))).toEqual(report);
  });

  it("names the file, line and field of a bad instance", async () => {
    const file = join(temp.path, "bad.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ instance_id: "a__b-1", repo: "a/b", base_commit: "abc1234", patch: "p", test_patch: "t", problem_statement: "x", FAIL_TO_PASS: "[]", PASS_TO_PASS: "[]" })}\n{"instance_id": "a__b-2", "repo": "a/b"}\n`,
    );
    const failed = await bench(["import-swebench", "--instances", file, "--out", join(temp.path, "bad-suite")]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain(`${file}:2: base_commit: `);
  });
});
