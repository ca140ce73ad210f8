import { describe, expect, it } from "vitest";
import { contentWords, extractSignals } from "../../src/plugin/core/routing/signals.js";

describe("extractSignals", () => {
  it("reads relative and absolute file paths, and absolute directories as workspaces", () => {
    const signals = extractSignals("In /tmp/run-17/ws3: fix src/click/core.py and tests/test_options.py, see ./docs/usage.md.");
    expect(signals.paths).toEqual(["docs/usage.md", "src/click/core.py", "tests/test_options.py"]);
    expect(signals.workspaces).toEqual(["/tmp/run-17/ws3"]);
  });

  it("does not take prose like and/or or a version number for a path", () => {
    const signals = extractSignals("Support input/output and/or 3.12 and e.g. 1.2.3 builds.");
    expect(signals.paths).toEqual([]);
  });

  it("reads code symbols: code spans, CamelCase, snake_case, dotted names, calls and flags", () => {
    const signals = extractSignals("`Context.invoke` breaks when ThemeToggle calls parse_duration() with --no-color");
    expect(signals.symbols).toEqual(expect.arrayContaining(["context.invoke", "themetoggle", "parse_duration", "--no-color"]));
  });

  it("reads issue references, bare issue numbers and task ordinals", () => {
    const signals = extractSignals("GH#56200 and the one for 8560, like task 2 did");
    expect(signals.issueRefs).toEqual(["#56200"]);
    expect(signals.numbers).toContain("#8560");
    expect(signals.taskOrdinals).toEqual([2]);
  });

  it("reads a back-reference, but not 'fall back to'", () => {
    expect(extractSignals("back to the CSV export: strip the BOM").backReference).toEqual(["csv", "export"]);
    expect(extractSignals("for the NO_PROXY fix: add a test").backReference).toEqual(["proxy"]);
    expect(extractSignals("fall back to prefers-color-scheme when nothing is stored").backReference).toBeNull();
  });

  it("recognises instructions meant for every task and requests that say they start something new", () => {
    expect(extractSignals("from now on run pytest with -q").sharedCue).toBe(true);
    expect(extractSignals("use `./gradlew test --offline` for all test runs").sharedCue).toBe(true);
    expect(extractSignals("run the tests again").sharedCue).toBe(false);
    expect(extractSignals("Unrelated: users are logged out after 5 minutes").newTaskCue).toBe(true);
  });

  it("is deterministic: the same text gives the same signals", () => {
    const text = "Back to `RetryTransport` in httpx/_transports/retry.py: honour Retry-After (#412).";
    expect(JSON.stringify(extractSignals(text))).toBe(JSON.stringify(extractSignals(text)));
  });
});

describe("contentWords", () => {
  it("drops stop words, splits identifiers into their parts and stems lightly", () => {
    expect(contentWords("The ThemeToggle stepper's labels are exporters")).toEqual(["theme", "toggle", "stepp", "label", "export"]);
  });
});
