import { describe, expect, it } from "vitest";
import { isTestPath } from "../../src/lab/bench/patch/is-test-path.js";
import { patchFiles } from "../../src/lab/bench/patch/patch-files.js";

describe("patch helpers", () => {
  it("classifies test files as SWE-bench does", () => {
    expect(isTestPath("tests/test_core.py")).toBe(true);
    expect(isTestPath("src/pkg/testing/util.py")).toBe(true);
    expect(isTestPath("e2e/login.spec.ts")).toBe(true);
    expect(isTestPath("src/pkg/contest.py")).toBe(false);
    expect(isTestPath("test_core.py")).toBe(false);
  });

  it("lists the files a git diff changes", () => {
    const patch = [
      "diff --git a/src/a.py b/src/a.py",
      "--- a/src/a.py",
      "+++ b/src/a.py",
      "@@ -1 +1 @@",
      "-x",
      "+y",
      "diff --git a/tests/test_a.py b/tests/test_a.py",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/tests/test_a.py",
      "@@ -0,0 +1 @@",
      "+def test_a(): pass",
      "",
    ].join("\n");
    expect(patchFiles(patch)).toEqual(["src/a.py", "tests/test_a.py"]);
  });
});
