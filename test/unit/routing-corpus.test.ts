import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCorpus } from "../../src/dev/check-corpus.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { readLabelledSessionFiles } from "../../src/lab/route-eval/labelled-sessions.js";
import { ROUTER_PARAMETERS } from "../../src/plugin/core/routing/router-parameters.js";

const CORPUS = join(packageRoot(), "fixtures", "routing-corpus");
const SPLITS = ["train", "dev", "test"] as const;

describe("the routing corpus", () => {
  it("is split by repository, follows its writing rules, and is as large as promised", async () => {
    const splits = [];
    for (const name of SPLITS) splits.push({ name, files: await readLabelledSessionFiles(join(CORPUS, name)) });
    const { problems, splits: stats } = checkCorpus(splits);
    expect(problems).toEqual([]);
    const sessions = stats.reduce((sum, split) => sum + split.sessions, 0);
    const requests = stats.reduce((sum, split) => sum + split.requests, 0);
    const repos = new Set(stats.flatMap((split) => split.repos));
    expect(sessions).toBeGreaterThanOrEqual(150);
    expect(requests).toBeGreaterThanOrEqual(2500);
    expect(repos.size).toBeGreaterThanOrEqual(20);
    for (const split of stats) {
      expect(split.shapes.switch.sessions, split.name).toBeGreaterThan(0);
      expect(split.shapes.everyday.sessions, split.name).toBeGreaterThan(0);
    }
  });

  it("says in the test split's README that nothing is fitted or tuned on it", async () => {
    const readme = await readFile(join(CORPUS, "test", "README.md"), "utf8");
    expect(readme).toMatch(/never used to fit or tune/i);
    expect(existsSync(join(CORPUS, "README.md"))).toBe(true);
  });
});

describe("the lexical router's parameters", () => {
  it("record the splits they were fitted on: the train split and the development thread sessions, nothing held out", () => {
    expect(ROUTER_PARAMETERS.fittedOn.splits).toEqual(["fixtures/routing-corpus/train", "fixtures/routing-threads-dev"]);
  });
});
