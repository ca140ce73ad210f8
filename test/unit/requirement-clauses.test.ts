import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clauses, requirementClauses } from "../../src/core/memory/requirement-clauses.js";
import { scoreRequest, totals } from "../../src/memory-eval/evaluate-requirements.js";
import { readRequirementSet, RequirementSetError } from "../../src/memory-eval/requirement-set.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { makeTempDir } from "../support/temp-dir.js";

// Examples in the style of the train split; the test split is never used here.
describe("requirement clauses of a request", () => {
  it("keeps what is asked, whole with its condition, and drops what is described", () => {
    const text =
      "parse_bool only understands the exact string 'true'. It should accept yes/no and on/off too, case-insensitively. When the value is None or an empty string, return default. What does Click do here?";
    expect(requirementClauses(text)).toEqual(["It should accept yes/no and on/off too, case-insensitively", "When the value is None or an empty string, return default"]);
  });

  it("splits two requirements joined by 'and' or a comma, not a condition from its rule", () => {
    expect(requirementClauses("Gate them with cfg and make sure docs.rs still shows them.")).toEqual(["Gate them with cfg", "make sure docs.rs still shows them"]);
    expect(requirementClauses("min_width should be honoured and the no_wrap column should be the one that gets cut.")).toEqual([
      "min_width should be honoured",
      "the no_wrap column should be the one that gets cut",
    ]);
    expect(requirementClauses("If the packaging is what breaks it, make this a docs fix, not a code change.")).toEqual(["If the packaging is what breaks it, make this a docs fix, not a code change"]);
  });

  it("reads past workspace paths, task labels and back-references, and keeps standing instructions", () => {
    expect(requirementClauses("/tmp/run-7/ws4: mirror the same change in index.d.cts; the typings check in CI compares both files.")).toEqual(["mirror the same change in index.d.cts"]);
    expect(requirementClauses("t2 — tests for the sqlite upsert in the bulk_create tests")).toEqual(["t2 — tests for the sqlite upsert in the bulk_create tests"]);
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
    expect(requirementClauses("Flag with default=True ignores flag_value\n\n```python\nupper.resolve(False)\n```\nIt must return flag_value.")).toEqual(["It must return flag_value"]);
    expect(requirementClauses("Can you also add a test for the chunking?")).toEqual(["Can you also add a test for the chunking?"]);
  });

  it("never splits inside code spans or quoted strings", () => {
    expect(clauses('Keep `a.b()` as is. slugify("Hello, World! ") must not crash.')).toEqual(["Keep `a.b()` as is", 'slugify("Hello, World! ") must not crash']);
  });
});

describe("scoring constraints against gold clauses", () => {
  const request = { id: "r", source: "s", file: "f", text: "Add X to the parser. Keep Y stable when Z is empty.", requirements: ["Add X to the parser", "Keep Y stable when Z is empty"] };

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
    await writeFile(file, `${JSON.stringify({ id: "a", source: "s", text: "Add X.", requirements: ["Add X"] })}\n${JSON.stringify({ id: "b", source: "s", text: "Add X.", requirements: ["Add Y"] })}\n`);
    await expect(readRequirementSet(file)).rejects.toThrow(new RequirementSetError(`${file}:2: requirements: every requirement must be a substring of text`));
    await temp.remove();
  });
});
