import { describe, expect, it } from "vitest";
import { parsePytestSummary } from "../../src/lab/bench/score/index.js";

describe("parsePytestSummary", () => {
  it("reads -rA summary lines with colours, parametrized ids, errors, skips and xfails", () => {
    const e = "\x1b";
    const output = [
      `${e}[31m${e}[1m________________________________ test_p[c - d] _________________________________${e}[0m`,
      "test_s.py::test_ok PASSED                                                 [ 10%]",
      `${e}[36m${e}[1m=========================== short test summary info ============================${e}[0m`,
      `${e}[32mPASSED${e}[0m test_s.py::${e}[1mtest_ok${e}[0m`,
      `${e}[32mPASSED${e}[0m test_s.py::${e}[1mtest_p[a b]${e}[0m`,
      `${e}[32mPASSED${e}[0m test_s.py::${e}[1mtest_p[e]]${e}[0m`,
      `${e}[32mPASSED${e}[0m test_s.py::${e}[1mtest_td${e}[0m`,
      `${e}[33mSKIPPED${e}[0m [1] test_s.py:15: not today`,
      `${e}[33mXFAIL${e}[0m test_s.py::${e}[1mtest_xf${e}[0m - known bug`,
      `${e}[33mXPASS${e}[0m test_s.py::${e}[1mtest_xp${e}[0m - fixed now`,
      `${e}[31mERROR${e}[0m test_s.py::${e}[1mtest_err${e}[0m - RuntimeError: fixture boom`,
      `${e}[31mERROR${e}[0m test_s.py::${e}[1mtest_td${e}[0m - RuntimeError: teardown boom`,
      `${e}[31mFAILED${e}[0m test_s.py::${e}[1mtest_bad${e}[0m - AssertionError: nope`,
      `${e}[31mFAILED${e}[0m test_s.py::${e}[1mtest_p[c - d]${e}[0m - AssertionError: assert 'c - d' != 'c - d'`,
      "FAILED test_s.py::test_q[x y]",
      "ERROR tests/test_broken.py - ImportError: no module named nothing",
      `${e}[31m==== ${e}[31m${e}[1m2 failed${e}[0m, ${e}[32m4 passed${e}[0m in 1.64s${e}[0m${e}[31m ====${e}[0m`,
    ].join("\r\n");
    expect(Object.fromEntries(parsePytestSummary(output))).toEqual({
      "test_s.py::test_ok": "PASSED",
      "test_s.py::test_p[a b]": "PASSED",
      "test_s.py::test_p[e]]": "PASSED",
      "test_s.py::test_td": "ERROR",
      "test_s.py::test_xf": "XFAIL",
      "test_s.py::test_xp": "XPASS",
      "test_s.py::test_err": "ERROR",
      "test_s.py::test_bad": "FAILED",
      "test_s.py::test_p[c - d]": "FAILED",
      "test_s.py::test_q[x y]": "FAILED",
      "tests/test_broken.py": "ERROR",
    });
  });
});
