import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPatch, failureClass, findPython, focusPatch, ScoreHarnessError, scoreTask } from "../../src/lab/bench/score/index.js";
import type { Task } from "../../src/lab/bench/suite/schema.js";
import { createGitRepo, git } from "../../src/lab/harness/git-repo.js";

const CALC = [
  "def add(a, b):",
  "    return a + b",
  "",
  "",
  "def clamp(value, low, high):",
  '    """Clamp value into [low, high]."""',
  "    if value < low:",
  "        return low",
  "    if value > high:",
  "        return value",
  "    return value",
  "",
].join("\n");
const BUGGY_BRANCH = "    if value > high:\n        return value\n";

const TESTS = [
  "from calc import add, clamp",
  "",
  "",
  "def test_add():",
  "    assert add(1, 2) == 3",
  "",
  "",
  "def test_clamp_low():",
  "    assert clamp(-1, 0, 10) == 0",
  "",
].join("\n");

const BASE_FILES = { "src/calc.py": CALC, "src/old.py": "OLD = 1\n", "tests/test_calc.py": TESTS, ".gitignore": "*.log\n" };

let root: string;
let repoDir: string;
let baseCommit: string;
let referencePatch: string;
let testPatch: string;

/** The git diff that turns the repository's files into `files`; the working tree is restored after. */
async function diffOf(dir: string, files: Record<string, string>): Promise<string> {
  for (const [path, content] of Object.entries(files)) await writeFile(join(dir, path), content);
  const diff = await git(dir, ["diff"]);
  await git(dir, ["checkout", "-q", "--", "."]);
  return diff;
}

function fixedCalc(returned: string, calc = CALC): string {
  return calc.replace(BUGGY_BRANCH, `    if value > high:\n        return ${returned}\n`);
}

function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    instance_id: "calc__calc-1",
    repo: "calc/calc",
    base_commit: baseCommit,
    patch: referencePatch,
    test_patch: testPatch,
    FAIL_TO_PASS: ["tests/test_calc.py::test_clamp_high"],
    PASS_TO_PASS: ["tests/test_calc.py::test_add", "tests/test_calc.py::test_clamp_low"],
    stages: [{ id: "s1", request: "clamp ignores the upper bound" }],
    // No plugin autoload: this machine's hypothesis plugin alone takes over a second to import.
    test_cmd: "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 PYTHONPATH=src python -m pytest -rA -p no:cacheprovider tests/test_calc.py",
    repo_url: repoDir,
    ...overrides,
  };
}

async function score(patch: string | null, options: { task?: Task; timeoutMs?: number } = {}) {
  const workDir = await mkdtemp(join(root, "work-"));
  return scoreTask({
    task: options.task ?? makeTask(),
    repoSource: repoDir,
    patch,
    workDir,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "rcm-bench-score-"));
  repoDir = join(root, "repo");
  baseCommit = await createGitRepo(repoDir, BASE_FILES);
  referencePatch = await diffOf(repoDir, { "src/calc.py": fixedCalc("high") });
  testPatch = await diffOf(repoDir, {
    "tests/test_calc.py": `${TESTS}\n\ndef test_clamp_high():\n    assert clamp(11, 0, 10) == 10\n`,
  });
  await findPython();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findPython", () => {
  it("finds an absolute interpreter that can import pytest, skipping a broken RCM_PYTHON", async () => {
    const python = await findPython({ ...process.env, RCM_PYTHON: join(root, "no-such-python") });
    expect(python.startsWith("/")).toBe(true);
  });
});

describe("focusPatch", () => {
  it("keeps non-test changes, new untracked files and deletions, and drops tests and ignored files", async () => {
    const checkout = join(root, "focus-checkout");
    await createGitRepo(checkout, BASE_FILES);
    await writeFile(join(checkout, "src/calc.py"), fixedCalc("high"));
    await writeFile(join(checkout, "tests/test_calc.py"), `${TESTS}\n# touched\n`);
    await writeFile(join(checkout, "src/helpers.py"), "HELP = True\n");
    await writeFile(join(checkout, "tests/test_helpers.py"), "def test_help():\n    pass\n");
    await writeFile(join(checkout, "debug.log"), "noise\n");
    await rm(join(checkout, "src/old.py"));
    await git(checkout, ["add", "src/calc.py"]);
    const statusBefore = await git(checkout, ["status", "--porcelain"]);

    const patch = await focusPatch(checkout, baseCommit);

    expect(patch).toContain("diff --git a/src/calc.py b/src/calc.py");
    expect(patch).toContain("diff --git a/src/helpers.py b/src/helpers.py");
    expect(patch).toContain("+HELP = True");
    expect(patch).toContain("diff --git a/src/old.py b/src/old.py");
    expect(patch).toContain("deleted file mode");
    expect(patch).not.toContain("tests/");
    expect(patch).not.toContain("debug.log");
    expect(await git(checkout, ["status", "--porcelain"])).toBe(statusBefore);

    const report = await score(patch);
    expect(report.resolved).toBe(true);
  });

  it("leaves out the build artefacts running the code leaves (bytecode, caches, node_modules) in a repository without a .gitignore, and keeps tracked files", async () => {
    const checkout = join(root, "focus-no-gitignore");
    const { ".gitignore": _ignored, ...files } = BASE_FILES;
    const base = await createGitRepo(checkout, { ...files, "tools/prebuilt.pyc": "tracked\n" });
    await writeFile(join(checkout, "src/calc.py"), fixedCalc("high"));
    await writeFile(join(checkout, "tools/prebuilt.pyc"), "changed\n");
    const artefacts = [
      "src/__pycache__/calc.cpython-311.pyc",
      "__pycache__/conftest.cpython-311.pyc",
      "src/stray.pyc",
      ".pytest_cache/v/cache/lastfailed",
      "node_modules/left-pad/index.js",
      "src/calc.egg-info/PKG-INFO",
      ".coverage",
    ];
    for (const path of artefacts) {
      await mkdir(join(checkout, path, ".."), { recursive: true });
      await writeFile(join(checkout, path), Buffer.from([0, 1, 2, 3, 255]));
    }
    const patch = await focusPatch(checkout, base);
    expect(patch).toContain("diff --git a/src/calc.py b/src/calc.py");
    expect(patch).toContain("diff --git a/tools/prebuilt.pyc b/tools/prebuilt.pyc");
    for (const path of ["__pycache__", "stray.pyc", ".pytest_cache", "node_modules", "egg-info", ".coverage"]) expect(patch).not.toContain(path);
  });

  it("is empty when only tests changed", async () => {
    const checkout = join(root, "focus-tests-only");
    await createGitRepo(checkout, BASE_FILES);
    await writeFile(join(checkout, "tests/test_more.py"), "def test_more():\n    pass\n");
    expect(await focusPatch(checkout, baseCommit)).toBe("");
  });

  it("keeps its scratch index in the temp dir it is given, leaving the process's TMPDIR alone", async () => {
    const checkout = join(root, "focus-temp-dir");
    await createGitRepo(checkout, BASE_FILES);
    await writeFile(join(checkout, "src/new.py"), "x = 1\n");
    const tempDir = join(root, "scratch");
    await mkdir(tempDir);
    const before = process.env.TMPDIR;
    expect(await focusPatch(checkout, baseCommit, { tempDir })).toBe(await focusPatch(checkout, baseCommit));
    await expect(focusPatch(checkout, baseCommit, { tempDir: join(root, "no-such-dir") })).rejects.toThrow(/no-such-dir/);
    expect(await readdir(tempDir)).toEqual([]);
    expect(process.env.TMPDIR).toBe(before);
  });
});

describe("applyPatch", () => {
  it("applies nothing for an empty patch", async () => {
    expect(await applyPatch(repoDir, "  \n")).toMatchObject({ applied: false, method: null });
  });

  it("falls back to patch --fuzz when the context lines no longer match, and leaves the checkout clean when nothing applies", async () => {
    const variantDir = join(root, "variant");
    const variant = `# calculator\n\n${CALC.replace("        return low\n", "        return low  # lower bound\n")}`;
    await createGitRepo(variantDir, { ...BASE_FILES, "src/calc.py": variant });
    const shiftedPatch = await diffOf(variantDir, { "src/calc.py": fixedCalc("high", variant) });

    const checkout = join(root, "apply-checkout");
    await createGitRepo(checkout, BASE_FILES);
    const result = await applyPatch(checkout, shiftedPatch);
    expect(result).toMatchObject({ applied: true, method: "patch --fuzz" });
    expect(result.log).toContain("$ git apply --reject");
    expect(await readFile(join(checkout, "src/calc.py"), "utf8")).toBe(fixedCalc("high"));
    expect(await git(checkout, ["status", "--porcelain"])).toBe(" M src/calc.py\n");

    await git(checkout, ["checkout", "-q", "--", "."]);
    const unrelated = shiftedPatch.replaceAll("return value", "return nothing_like_it");
    expect(await applyPatch(checkout, unrelated)).toMatchObject({ applied: false, method: null });
    expect(await git(checkout, ["status", "--porcelain"])).toBe("");
  });
});

describe("scoreTask", () => {
  it("resolves the task with the reference patch", async () => {
    const report = await score(referencePatch);
    expect(report).toMatchObject({
      instance_id: "calc__calc-1",
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: true,
      resolved: true,
      apply_method: "git apply",
      test_exit_code: 0,
      test_timed_out: false,
      tests_status: {
        FAIL_TO_PASS: { success: ["tests/test_calc.py::test_clamp_high"], failure: [] },
        PASS_TO_PASS: { success: ["tests/test_calc.py::test_add", "tests/test_calc.py::test_clamp_low"], failure: [] },
      },
    });
    expect(report.test_output_tail).toContain("short test summary info");
    expect(failureClass({ finalized: true, errored: false, budgetExhausted: false, report })).toBe("resolved");
    expect(failureClass({ finalized: false, errored: false, budgetExhausted: false, report })).toBe("incomplete");
    expect(failureClass({ finalized: true, errored: false, budgetExhausted: true, report })).toBe("incomplete");
  });

  it("does not resolve without a patch, which is a submission failure", async () => {
    const report = await score(null);
    expect(report).toMatchObject({ patch_is_None: true, patch_exists: false, patch_successfully_applied: false, resolved: false, apply_method: null });
    // The tests still ran on the base revision: the new test fails, the old ones pass.
    expect(report.tests_status.FAIL_TO_PASS.failure).toEqual(["tests/test_calc.py::test_clamp_high"]);
    expect(report.tests_status.PASS_TO_PASS.failure).toEqual([]);
    expect(failureClass({ finalized: true, errored: false, budgetExhausted: false, report })).toBe("submission");
    expect(failureClass({ finalized: true, errored: false, budgetExhausted: false })).toBe("submission");
  });

  it("counts a wrong fix that applies as an implementation failure", async () => {
    const wrongPatch = await diffOf(repoDir, { "src/calc.py": fixedCalc("low") });
    const report = await score(wrongPatch);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.resolved).toBe(false);
    expect(report.tests_status.FAIL_TO_PASS.failure).toEqual(["tests/test_calc.py::test_clamp_high"]);
    expect(report.test_exit_code).toBe(1);
    expect(failureClass({ finalized: true, errored: false, budgetExhausted: false, report })).toBe("implementation");
  });

  it("puts the test patch's files back to the base revision before applying it", async () => {
    const testEdit = await diffOf(repoDir, { "tests/test_calc.py": TESTS.replace("== 3", "== 4") });
    const report = await score(referencePatch + testEdit);
    expect(report.patch_successfully_applied).toBe(true);
    expect(report.resolved).toBe(true);
  });

  it("throws a harness error when the test patch does not apply", async () => {
    const task = makeTask({ test_patch: testPatch.replaceAll("def test_clamp_low", "def test_clamp_lowest") });
    await expect(score(referencePatch, { task })).rejects.toBeInstanceOf(ScoreHarnessError);
  });

  it("kills a test command that runs past the timeout and does not resolve", async () => {
    const started = Date.now();
    const report = await score(referencePatch, { task: makeTask({ test_cmd: "sleep 30" }), timeoutMs: 1500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report).toMatchObject({ patch_successfully_applied: true, resolved: false, test_timed_out: true, test_exit_code: null });
    expect(report.tests_status.PASS_TO_PASS.failure).toHaveLength(2);
  });
});
