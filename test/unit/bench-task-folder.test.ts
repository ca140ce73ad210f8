import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type InputLocation, RcmError } from "../../src/kit/errors/rcm-error.js";
import { loadTasks } from "../../src/lab/bench/suite/load-suite.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";
import { readTaskFolder, writeTaskFolder } from "../../src/lab/bench/suite/task-folder.js";
import { makeTempDir } from "../support/temp-dir.js";

const TASK: Task = {
  instance_id: "acme__widgets-7",
  repo: "acme/widgets",
  base_commit: "abc1234",
  patch: "diff --git a/src/w.py b/src/w.py\n--- a/src/w.py\n+++ b/src/w.py\n@@ -1 +1 @@\n-old\n+new\n",
  test_patch: "diff --git a/tests/test_w.py b/tests/test_w.py\n--- a/tests/test_w.py\n+++ b/tests/test_w.py\n@@ -1 +1 @@\n-old\n+new\n",
  FAIL_TO_PASS: ["tests/test_w.py::test_fix"],
  PASS_TO_PASS: [],
  stages: [
    { id: "stage-1", request: "The widget breaks on empty input.\n\n```\nw('')\n```" },
    { id: "stage-2", request: "Also keep the old error message.\n" },
  ],
  test_cmd: "python -m pytest -rA tests/test_w.py",
  repo_url: "https://example.invalid/acme/widgets.git",
};

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-task-folder");
});
afterEach(async () => {
  await temp.remove();
});

async function problem(promise: Promise<unknown>): Promise<InputLocation & { message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RcmError);
  const { code, location, message } = error as RcmError;
  expect(code).toBe("suite");
  if (location === undefined) throw new Error(`no location in: ${message}`);
  return { ...location, message };
}

describe("a task as a folder", () => {
  it("is task.json, one Markdown file per request, and the two patches as real files, read back exactly", async () => {
    await writeTaskFolder(temp.path, TASK);
    const dir = join(temp.path, "tasks", TASK.instance_id);
    expect((await readdir(dir)).sort()).toEqual(["patch.diff", "stage-1.md", "stage-2.md", "task.json", "test_patch.diff"]);
    expect(await readFile(join(dir, "patch.diff"), "utf8")).toBe(TASK.patch);
    expect(await readFile(join(dir, "stage-1.md"), "utf8")).toBe(`${TASK.stages[0]?.request}\n`);
    expect(JSON.parse(await readFile(join(dir, "task.json"), "utf8"))).not.toHaveProperty("stages");
    expect(await readTaskFolder(temp.path, TASK.instance_id)).toEqual(TASK);
  });

  it("keeps stage ids that are not stage-N in task.json", async () => {
    const task = {
      ...TASK,
      stages: [
        { id: "issue", request: "a" },
        { id: "review", request: "b" },
      ],
    };
    await writeTaskFolder(temp.path, task);
    expect(JSON.parse(await readFile(join(temp.path, "tasks", task.instance_id, "task.json"), "utf8")).stage_ids).toEqual(["issue", "review"]);
    expect((await readTaskFolder(temp.path, task.instance_id)).stages).toEqual(task.stages);
  });

  it("is what a suite's tasks are when the suite has a tasks/ folder, in folder-name order", async () => {
    await writeTaskFolder(temp.path, { ...TASK, instance_id: "b-2" });
    await writeTaskFolder(temp.path, { ...TASK, instance_id: "a-1" });
    expect((await loadTasks(temp.path)).map((task) => task.instance_id)).toEqual(["a-1", "b-2"]);
  });

  it("names the file and field of a problem", async () => {
    await writeTaskFolder(temp.path, TASK);
    const dir = join(temp.path, "tasks", TASK.instance_id);
    const taskFile = join(dir, "task.json");
    const original = await readFile(taskFile, "utf8");

    await writeFile(taskFile, original.replace('"abc1234"', '"not-a-commit"'));
    let error = await problem(readTaskFolder(temp.path, TASK.instance_id));
    expect([error.file, error.field]).toEqual([taskFile, "base_commit"]);

    await writeFile(taskFile, original.replace('"acme__widgets-7"', '"other-id"'));
    error = await problem(readTaskFolder(temp.path, TASK.instance_id));
    expect(error.message).toBe(`${taskFile}: instance_id: "other-id" must be the folder's name "acme__widgets-7"`);

    await writeFile(taskFile, original.replace("{", '{"extra": 1,'));
    error = await problem(readTaskFolder(temp.path, TASK.instance_id));
    expect([error.file, error.field]).toEqual([taskFile, "extra"]);

    await writeFile(taskFile, original);
    await rm(join(dir, "stage-1.md"));
    error = await problem(readTaskFolder(temp.path, TASK.instance_id));
    expect(error.file).toBe(join(dir, "stage-1.md"));
    expect(error.problem).toContain("numbered 1 to 1 without gaps");

    await writeFile(join(dir, "stage-1.md"), "\n");
    error = await problem(readTaskFolder(temp.path, TASK.instance_id));
    expect([error.file, error.field]).toEqual([join(dir, "stage-1.md"), "(file)"]);

    await writeFile(join(dir, "stage-1.md"), "ok\n");
    await rm(join(dir, "test_patch.diff"));
    error = await problem(readTaskFolder(temp.path, TASK.instance_id));
    expect(error.file).toBe(join(dir, "test_patch.diff"));
  });

  it("ignores files that are not the task's (notes, a check script)", async () => {
    await writeTaskFolder(temp.path, TASK);
    await mkdir(join(temp.path, "tasks", TASK.instance_id, "notes"));
    await writeFile(join(temp.path, "tasks", TASK.instance_id, "README.md"), "why this task\n");
    expect(await readTaskFolder(temp.path, TASK.instance_id)).toEqual(TASK);
  });
});
