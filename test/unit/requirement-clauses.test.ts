import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { scoreRequest, totals } from "../../src/lab/memory-eval/evaluate-requirements.js";
import { readRequirementSet } from "../../src/lab/memory-eval/requirement-set.js";
import { clauses, requirementClauses } from "../../src/plugin/core/memory/requirement-clauses.js";
import { makeTempDir } from "../support/temp-dir.js";

// Examples in the style of the train split; the test split is never used here.
describe("requirement clauses of a request", () => {
  it("keeps what is asked, whole with its condition, and drops what is described", () => {
    const text =
      "parse_bool only understands the exact string 'true'. It should accept yes/no and on/off too, case-insensitively. When the value is None or an empty string, return default. What does Click do here?";
    expect(requirementClauses(text)).toEqual([
      "It should accept yes/no and on/off too, case-insensitively",
      "When the value is None or an empty string, return default",
    ]);
  });

  it("splits two requirements joined by 'and' or a comma, not a condition from its rule", () => {
    expect(requirementClauses("Gate them with cfg and make sure docs.rs still shows them.")).toEqual([
      "Gate them with cfg",
      "make sure docs.rs still shows them",
    ]);
    expect(requirementClauses("min_width should be honoured and the no_wrap column should be the one that gets cut.")).toEqual([
      "min_width should be honoured",
      "the no_wrap column should be the one that gets cut",
    ]);
    expect(requirementClauses("If the packaging is what breaks it, make this a docs fix, not a code change.")).toEqual([
      "If the packaging is what breaks it, make this a docs fix, not a code change",
    ]);
  });

  it("reads past workspace paths, task labels and back-references, and keeps standing instructions", () => {
    expect(requirementClauses("/tmp/run-7/ws4: mirror the same change in index.d.cts; the typings check in CI compares both files.")).toEqual([
      "mirror the same change in index.d.cts",
    ]);
    expect(requirementClauses("t2 — tests for the sqlite upsert in the bulk_create tests")).toEqual(["tests for the sqlite upsert in the bulk_create tests"]);
    expect(requirementClauses("as I said at the start, v1.x for everything - double-check the branch before each commit")).toEqual([
      "as I said at the start, v1.x for everything",
      "double-check the branch before each commit",
    ]);
  });

  it("takes the rules a specification states after its first requirement, and the items of a rule list", () => {
    expect(requirementClauses("Words should be compared case-insensitively. A token made only of punctuation is not a word.")).toEqual([
      "Words should be compared case-insensitively",
      "A token made only of punctuation is not a word",
    ]);
    expect(requirementClauses("The rules must hold for any separator: a run of other characters becomes one sep, and there is no sep at either end.")).toEqual([
      "The rules must hold for any separator",
      "a run of other characters becomes one sep",
      "there is no sep at either end",
    ]);
  });

  it("leaves out one-off instructions, questions, pleasantries, titles and code", () => {
    expect(requirementClauses("run the jsonfield tests on sqlite")).toEqual([]);
    expect(requirementClauses("Thanks, looks good! Is the cache shared?")).toEqual([]);
    expect(requirementClauses("Flag with default=True ignores flag_value\n\n```python\nupper.resolve(False)\n```\nIt must return flag_value.")).toEqual([
      "It must return flag_value",
    ]);
    expect(requirementClauses("Can you also add a test for the chunking?")).toEqual(["Can you also add a test for the chunking?"]);
  });

  it("never splits inside code spans or quoted strings", () => {
    expect(clauses('Keep `a.b()` as is. slugify("Hello, World! ") must not crash.')).toEqual([
      "Keep `a.b()` as is",
      'slugify("Hello, World! ") must not crash',
    ]);
  });
});

// Invariants a person would hold about what a requirement is, in our own words (not from any split).
describe("what a requirement is", () => {
  it("never takes a question, however it is phrased", () => {
    for (const text of [
      "Should the exporter skip hidden columns?",
      "does the retry still back off exponentially",
      "Could there be a way to turn the banner off?",
      "Can we document the proxy settings somewhere?",
      "is it worth caching the manifest, or is that overkill?",
      "Would it make sense for parse() to accept bytes too?",
    ]) {
      expect(requirementClauses(text.endsWith("?") ? text : `${text}?`), text).toEqual([]);
    }
  });

  it("takes a request addressed to the agent as a request, though it ends with a question mark", () => {
    expect(requirementClauses("Can you add a --dry-run flag to the sync command?")).toEqual(["Can you add a --dry-run flag to the sync command?"]);
    expect(requirementClauses("Could you please rename `load_cfg` to `load_config`?")).toHaveLength(1);
    // Only its instructions count: confirming is session work, the test is a deliverable.
    expect(requirementClauses("Could you confirm this on 3.12 and add a regression test for it?")).toEqual(["add a regression test for it?"]);
  });

  it("finds nothing in a pure bug report", () => {
    const report =
      "Since 2.4 the CSV exporter writes dates as timestamps. With `export(rows, fmt='csv')` a row dated 2024-03-01 comes out as 1709251200. The JSON exporter is not affected, and 2.3 wrote ISO dates. We run it on Python 3.11.";
    expect(requirementClauses(report)).toEqual([]);
  });

  it("splits two instructions joined by 'and' into two", () => {
    expect(requirementClauses("Add a timeout parameter to fetch_all and make the default 30 seconds.")).toEqual([
      "Add a timeout parameter to fetch_all",
      "make the default 30 seconds",
    ]);
    expect(requirementClauses("Rename the flag to --force, and update the help text.")).toHaveLength(2);
  });

  it("keeps a condition with the rule it qualifies", () => {
    expect(requirementClauses("When the cache directory is missing, create it and log a warning.")).toEqual([
      "When the cache directory is missing, create it and log a warning",
    ]);
  });

  it("never takes code: fenced or indented blocks, however imperative they look", () => {
    const fenced = "Here is what I run:\n\n```sh\nremove the build dir\nadd --force to the command\n```\n";
    expect(requirementClauses(fenced)).toEqual([]);
    const indented = "The loop looks like this:\n\n    keep_going = True\n    add(item)\n\nIt never stops.";
    expect(requirementClauses(indented)).toEqual([]);
  });

  it("leaves out one-off work on the session: running, pushing, showing, explaining, investigating", () => {
    for (const text of [
      "run the integration tests again",
      "push it to my fork",
      "show me the diff for parser.py",
      "explain why the lock is needed",
      "look at how the retry decorator is applied",
      "rebase on main and submit the PR",
    ]) {
      expect(requirementClauses(text), text).toEqual([]);
    }
  });

  it("keeps 'check that X still holds', a behaviour that must survive, but not a bare 'check X'", () => {
    expect(requirementClauses("check that the old config keys still load")).toHaveLength(1);
    expect(requirementClauses("check the config loader")).toEqual([]);
  });

  it("keeps standing instructions and decisions, even about the workflow", () => {
    expect(requirementClauses("From now on, run only the unit tests for the module you touch.")).toHaveLength(1);
    expect(requirementClauses("For all of these: no new dependencies.")).toHaveLength(1);
    expect(requirementClauses("as I said, no changes to the public API")).toHaveLength(1);
    expect(requirementClauses("We're not changing the default encoding.")).toHaveLength(1);
  });

  it("keeps a deliverable named without a verb, but not a bare word that could mean running them", () => {
    expect(requirementClauses("a changelog entry under Fixed too")).toHaveLength(1);
    expect(requirementClauses("tests in tests/test_export.py for both date formats")).toHaveLength(1);
    expect(requirementClauses("tests")).toEqual([]);
  });

  it("takes a bare go-ahead only when it names a defect stated in the same message", () => {
    expect(requirementClauses("implement it")).toEqual([]);
    expect(requirementClauses("The linter flags an unused import in cli.py. Fix it.")).toEqual(["Fix it"]);
  });

  it("takes wants the user adopts, not opinions reported from others", () => {
    expect(requirementClauses("The reviewer wants the cache size to be configurable.")).toHaveLength(1);
    expect(requirementClauses("A user argues that empty strings should count as missing. That needs a maintainer decision.")).toEqual([]);
  });

  it("takes the target stated as plain facts once the request asks for something, and the items of a list that defines it", () => {
    expect(requirementClauses("Durations should parse as h/m/s pairs. Each unit appears at most once. An empty string is not a duration.")).toEqual([
      "Durations should parse as h/m/s pairs",
      "Each unit appears at most once",
      "An empty string is not a duration",
    ]);
    expect(requirementClauses("lookup() should return:\n- a hit: the cached value\n- a miss: None")).toEqual([
      "lookup() should return",
      "a hit: the cached value",
      "a miss: None",
    ]);
  });

  it("keeps a statement that an instruction's pronoun points back to, in the same sentence", () => {
    expect(requirementClauses("the formatter drops the trailing comment, keep it on its own line")).toEqual([
      "the formatter drops the trailing comment, keep it on its own line",
    ]);
  });
});

describe("scoring constraints against gold clauses", () => {
  const request = {
    id: "r",
    source: "s",
    file: "f",
    text: "Add X to the parser. Keep Y stable when Z is empty.",
    requirements: ["Add X to the parser", "Keep Y stable when Z is empty"],
  };

  it("matches a clause cut a little differently, one-to-one, and counts what is missed and extra", () => {
    const result = scoreRequest(request, ["Add X to the parser please", "Keep Y stable", "The build is slow"]);
    expect(result.missed).toEqual(["Keep Y stable when Z is empty"]);
    expect(result.extra).toEqual(["Keep Y stable", "The build is slow"]);
    expect(totals([result])).toMatchObject({ gold: 2, predicted: 3, matched: 1 });
  });

  it("does not let a whole paragraph match a short clause", () => {
    expect(scoreRequest(request, [request.text]).missed).toHaveLength(1);
  });
});

describe("the labelled requirement set", () => {
  it("has three splits that parse, with the test split documented as never tuned on", async () => {
    const root = join(packageRoot(), "fixtures", "requirements");
    for (const split of ["train", "dev", "test"]) {
      const set = await readRequirementSet(join(root, split));
      expect(set.length, split).toBeGreaterThan(100);
    }
    expect(await readdir(join(root, "test"))).toContain("README.md");
    expect(await readFile(join(root, "test", "README.md"), "utf8")).toMatch(/never used to fit, tune or choose/i);
  });

  it("names the file, line and field of a bad entry", async () => {
    const temp = await makeTempDir("rcm-requirements");
    const file = join(temp.path, "bad.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ id: "a", source: "s", text: "Add X.", requirements: ["Add X"] })}\n${JSON.stringify({ id: "b", source: "s", text: "Add X.", requirements: ["Add Y"] })}\n`,
    );
    await expect(readRequirementSet(file)).rejects.toMatchObject({
      code: "requirement-set",
      message: `${file}:2: requirements: every requirement must be a substring of text`,
    });
    await temp.remove();
  });
});
