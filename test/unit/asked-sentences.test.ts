import { describe, expect, it } from "vitest";
import { scoreAskedSentences, sentenceTotals } from "../../src/lab/memory-eval/score-asked-sentences.js";
import { askedSentences } from "../../src/plugin/core/memory/asked-sentences.js";
import { withoutCueWords } from "../../src/plugin/core/memory/cue-words.js";
import { isPluginCommand, PLUGIN_VERBS } from "../../src/plugin/core/memory/plugin-commands.js";
import { resolvedText } from "../../src/plugin/core/memory/resolve-references.js";
import { RCM_VERBS } from "../../src/plugin/session-views/rcm-verbs.js";

const asked = (text: string) => askedSentences(text).map((sentence) => sentence.text);

describe("asked sentences: what the user asked, whole and in their words", () => {
  it("keeps a sentence with two requirements whole, not cut into clauses", () => {
    expect(asked("parse_date should reject 2024-13-45 and report the bad field. Thanks!")).toEqual([
      "parse_date should reject 2024-13-45 and report the bad field",
    ]);
  });

  it("drops questions, thanks, narration, descriptions of today and one-off session work", () => {
    expect(
      asked("Thanks, looks good! What does --strict do? I tried pinning the version and it still failed. Right now the export is slow. Run the tests."),
    ).toEqual([]);
  });

  it("keeps a short follow-up that asks, with its 'also'", () => {
    expect(asked("also handle the empty case")).toEqual(["also handle the empty case"]);
    expect(asked("the date thing should also accept slashes")).toEqual(["the date thing should also accept slashes"]);
  });

  it("drops the steering words of a switch and keeps the code name it scopes the sentence to", () => {
    expect(asked("separate thing: add a --version flag to the CLI")).toEqual(["add a --version flag to the CLI"]);
    expect(asked("one more on parse_line: values may be wrapped in double quotes, strip them")).toEqual([
      "parse_line: values may be wrapped in double quotes, strip them",
    ]);
  });

  it("keeps nothing of a command typed to the plug-in", () => {
    for (const typed of ["show t1", "/rcm status", "move 3 t2", "/rcm move 4.. new", "status"]) expect(asked(typed), typed).toEqual([]);
    expect(asked("show the diff")).toEqual([]);
  });

  it("reads chat shorthand spelled out and keeps it as typed", () => {
    expect(asked("pls dont touch the migrations folder")).toEqual(["pls dont touch the migrations folder"]);
    expect(asked("login btn on mobile is cut off lol 😅 pls fix")).toEqual(["pls fix"]);
  });

  it("takes the items of a specification and Gherkin outcomes, not reproduction steps or the environment", () => {
    expect(asked("Acceptance criteria:\n- Max upload size is 25 MB\n- Allowed types: PDF, PNG")).toEqual([
      "Max upload size is 25 MB",
      "Allowed types: PDF, PNG",
    ]);
    expect(asked("Scenario: expired code\n  Given a cart\n  When the customer applies SPRING24\n  Then the total is unchanged")).toEqual([
      "Then the total is unchanged",
    ]);
    expect(asked("The menu closes.\n\n**To reproduce**\n1. Open the menu\n2. Scroll\n\n**Environment**\n- Firefox 126, macOS 14")).toEqual([]);
  });

  it("keeps the semicolon that ends an HTML entity the user typed, dropping only the sentence's own end", () => {
    expect(asked("escapeHtml must escape double quotes as &quot; and single quotes as &#39;.")).toEqual([
      "escapeHtml must escape double quotes as &quot; and single quotes as &#39;",
    ]);
  });

  it("drops a pasted log that a colon leads into, and stack frames wherever they stand (issue 47)", () => {
    expect(
      asked("Back to the rate limiter, it crashed:\n    at check (src/limiter.js:3:9)\n    Node.js v20.11.1\nIt must also set a Retry-After header."),
    ).toEqual(["It must also set a Retry-After header"]);
    expect(asked("It fails with\nat check (src/limiter.js:3:9)\nat Server.emit (node:events:519:28)\nThe limiter must not throw.")).toEqual([
      "The limiter must not throw",
    ]);
  });

  it("says what a sentence that points back points at", () => {
    const [first, second] = askedSentences("values may be wrapped in double quotes, strip them. add a test for that");
    expect(second?.pointsBack).toBe(true);
    expect(resolvedText(second ?? { text: "", pointsBack: false }, first?.text)).toBe(
      'add a test for that [opencode-rcm reads "that" as: values may be wrapped in double quotes, strip them]',
    );
    expect(resolvedText({ text: "add a test for that", pointsBack: true }, undefined)).toBe("add a test for that");
  });

  it("drops only leading steering words, never the whole sentence", () => {
    expect(withoutCueWords("ok so, back to the parser: parse_date should accept slashes")).toBe("parse_date should accept slashes");
    expect(withoutCueWords("separate thing:")).toBe("separate thing:");
  });

  it("knows every /rcm verb as a plug-in command", () => {
    expect([...PLUGIN_VERBS].sort()).toEqual(RCM_VERBS.map((verb) => verb.name).sort());
    expect(isPluginCommand("split t2")).toBe(true);
  });
});

describe("scoring asked sentences", () => {
  const request = { id: "x", source: "s", file: "f", text: "", requirements: ["reject 2024-13-45", "report the bad field"] };

  it("counts two clauses held by one sentence, and a sentence holding none as wrong", () => {
    const result = scoreAskedSentences(request, ["parse_date should reject 2024-13-45 and report the bad field", "the build is slow"]);
    expect(result.missed).toEqual([]);
    expect(result.extra).toEqual(["the build is slow"]);
    expect(sentenceTotals([result])).toMatchObject({ gold: 2, predicted: 2, precision: 0.5, recall: 1 });
  });

  it("does not count a clause cut up across two constraints", () => {
    const cut = { ...request, requirements: ["reject 2024-13-45 and report the bad field with its line"] };
    expect(scoreAskedSentences(cut, ["reject 2024-13-45", "report the bad field with its line"]).missed).toHaveLength(1);
  });
});
