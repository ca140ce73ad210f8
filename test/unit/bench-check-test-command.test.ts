import { describe, expect, it } from "vitest";
import { runsTest, testCommandPaths } from "../../src/lab/bench/check/test-command-paths.js";

describe("which tests a test command runs", () => {
  it("reads the file arguments, not the program, options, their values or variables", () => {
    expect(testCommandPaths("PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python -m pytest -p no:cacheprovider -rA tests/test_existing.py tests/test_flag.py")).toEqual([
      "tests/test_existing.py",
      "tests/test_flag.py",
    ]);
    expect(
      testCommandPaths("pytest -rA -vv -o console_output_style=classic --tb=no --deselect tests/a.py::slow ./astropy/io/tests/ 'tests/with space.py'"),
    ).toEqual(["astropy/io/tests", "tests/with space.py"]);
    expect(testCommandPaths("./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 admin_views.tests")).toEqual([]);
    expect(testCommandPaths("cd sub && python -m pytest -rA")).toEqual([]);
  });

  it("runs a test in a named file or directory, or anything when no file is named", () => {
    expect(runsTest(["tests/test_flag.py"], "tests/test_flag.py::test_x[a/b]")).toBe(true);
    expect(runsTest(["tests"], "tests/unit/test_flag.py::TestA::test_x")).toBe(true);
    expect(runsTest(["tests/test_flag.py"], "tests/test_flags.py::test_x")).toBe(false);
    expect(runsTest(["tests/test_flag.py::TestA"], "tests/test_flag.py::TestA::test_x")).toBe(true);
    expect(runsTest(["tests/test_flag.py::TestA"], "tests/test_flag.py::TestB::test_x")).toBe(false);
    expect(runsTest([], "tests/test_flags.py::test_x")).toBe(true);
    // Django's and SymPy's ids name no file: not checked.
    expect(runsTest(["tests/test_flag.py"], "test_x (admin_views.tests.AdminTests)")).toBe(true);
  });
});
