// Builds fixtures/bench-small/: a three-task Switch-SWE suite over a tiny stdlib-only Python
// repository, for the benchmark driver's own tests, plus the playbook of the scripted agent
// that solves it (agent.json). Deterministic: git runs with a fixed identity and dates and no
// user or system config, so the base commit is the same on every machine and a second run
// writes byte-identical files. Run: `node scripts/build-bench-small.mjs`; check the result
// with `node scripts/check-bench-small.mjs`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { writeTaskFolder } from "../dist/bench/suite/task-folder.js";
import { fixtureGit } from "./lib/fixture-git.mjs";

const { git, writeRepoFile, diffOf } = fixtureGit("minitext");

export const OUT_DIR = join(import.meta.dirname, "..", "fixtures", "bench-small");
export const REPO = "minitext/minitext";
export const BUNDLE = "repo.bundle";
export const CHECK_COMMAND = "python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";

const FINALIZE = "finalize";

// ---------------------------------------------------------------------------------------------
// The repository at its base commit.

const BASE_FILES = {
  ".gitignore": "__pycache__/\n*.pyc\n.pytest_cache/\n",
  "README.md": "# minitext\n\nSmall text helpers, standard library only.\n\nRun the tests from the repository root with `python -m pytest`.\n",
  "conftest.py": "",
  "minitext/__init__.py": '"""minitext: small text helpers."""\n\n__version__ = "0.1.0"\n',
  "minitext/text/__init__.py": '"""Text transformations."""\n',
  "minitext/text/slug.py": `"""URL slugs."""

import re


def slugify(text):
    """Return a URL slug for \`text\`: lower-case, with "-" in place of every other character."""
    return re.sub(r"[^a-z0-9]", "-", text.lower())
`,
  "minitext/text/wrap.py": `"""Line wrapping."""


def wrap(text, width):
    """Split \`text\` into lines of at most \`width\` characters."""
    return [text[i:i + width] for i in range(0, len(text), width)]
`,
  "minitext/stats/__init__.py": '"""Text statistics."""\n',
  "minitext/stats/count.py": `"""Word counts."""


def word_counts(text):
    """Return a dict mapping each word of \`text\` to how often it occurs."""
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts
`,
  "tests/test_existing.py": `from minitext.stats.count import word_counts
from minitext.text.slug import slugify
from minitext.text.wrap import wrap


def test_slugify_lowercases_a_word():
    assert slugify("Hello") == "hello"


def test_slugify_joins_words_with_a_dash():
    assert slugify("hello world") == "hello-world"


def test_slugify_keeps_digits():
    assert slugify("version 2") == "version-2"


def test_wrap_of_empty_text_is_empty():
    assert wrap("", 5) == []


def test_wrap_keeps_a_short_text_on_one_line():
    assert wrap("abc def", 20) == ["abc def"]


def test_word_counts_counts_repeats():
    assert word_counts("a b a") == {"a": 2, "b": 1}


def test_word_counts_of_empty_text_is_empty():
    assert word_counts("") == {}
`,
};

// ---------------------------------------------------------------------------------------------
// The tasks. `stage1` and `final` are the file after each stage (the agent's playbook; `final`
// is also the reference fix). `forgetful` does stage 2 without keeping stage 1's rule, the
// paper's "loss of task state": check-bench-small.mjs confirms the held-out tests catch it.

export const TASKS = [
  {
    instance_id: "minitext__minitext-1",
    file: "minitext/text/slug.py",
    testFile: "tests/test_slug.py",
    requests: [
      `slugify() leaves runs of dashes and dashes at both ends: slugify("  Hello,  World! ") returns "--hello---world--" where "hello-world" is expected. A run of characters that are not letters or digits should become a single separator, and a slug should never start or end with a separator.`,
      `Review round: please give slugify() an optional sep argument (default "-") so callers can ask for slugify("Hello World", sep="_") == "hello_world". The rules from the first round must hold for any separator: a run of other characters becomes one sep, and there is no sep at either end.`,
    ],
    stage1: `"""URL slugs."""

import re


def slugify(text):
    """Return a URL slug for \`text\`: its lower-case words joined by single "-"."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
`,
    final: `"""URL slugs."""

import re


def slugify(text, sep="-"):
    """Return a URL slug for \`text\`: its lower-case words joined by single \`sep\`."""
    return sep.join(re.findall(r"[a-z0-9]+", text.lower()))
`,
    forgetful: `"""URL slugs."""

import re


def slugify(text, sep="-"):
    """Return a URL slug for \`text\`: its lower-case words joined by \`sep\`."""
    return re.sub(r"[^a-z0-9]+", sep, text.lower()).strip("-")
`,
    tests: `from minitext.text.slug import slugify


def test_runs_of_separators_collapse():
    assert slugify("a  --  b") == "a-b"


def test_no_separator_at_the_ends():
    assert slugify("  Hello,  World! ") == "hello-world"


def test_custom_separator():
    assert slugify("Hello World", sep="_") == "hello_world"


def test_custom_separator_keeps_the_rules():
    assert slugify("  Hello,  World! ", sep="_") == "hello_world"
    assert slugify("--a--b--", sep=".") == "a.b"
`,
  },
  {
    instance_id: "minitext__minitext-2",
    file: "minitext/text/wrap.py",
    testFile: "tests/test_wrap.py",
    requests: [
      `wrap() splits words in the middle: wrap("the quick brown fox", 12) returns ["the quick br", "own fox"] instead of ["the quick", "brown fox"]. Lines should break only at whitespace and hold as many words as fit in width, separated by one space, with no space at the start or end of a line. A word longer than width goes on a line of its own, unbroken.`,
      `Review round: add an optional indent argument (default "") that is put at the start of every line, for bullet continuations. The indent counts toward width, and the rules from the first round still apply to indented lines: break only at whitespace, and a word that does not fit stays whole on a line of its own.`,
    ],
    stage1: `"""Line wrapping."""


def wrap(text, width):
    """Split \`text\` into lines of at most \`width\` characters, breaking only at whitespace.

    A word longer than \`width\` stays whole on a line of its own.
    """
    lines = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines
`,
    final: `"""Line wrapping."""


def wrap(text, width, indent=""):
    """Split \`text\` into lines of at most \`width\` characters, breaking only at whitespace.

    Every line starts with \`indent\`, which counts toward \`width\`. A word that does not fit
    stays whole on a line of its own.
    """
    lines = []
    line = ""
    for word in text.split():
        if line and len(indent) + len(line) + 1 + len(word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(indent + line)
    return lines
`,
    forgetful: `"""Line wrapping."""


def wrap(text, width, indent=""):
    """Split \`text\` into lines of at most \`width\` characters, each starting with \`indent\`."""
    room = max(width - len(indent), 1)
    return [indent + text[i:i + room] for i in range(0, len(text), room)]
`,
    tests: `from minitext.text.wrap import wrap


def test_breaks_only_at_whitespace():
    assert wrap("the quick brown fox", 12) == ["the quick", "brown fox"]


def test_a_long_word_stays_whole():
    assert wrap("a extraordinarily b", 5) == ["a", "extraordinarily", "b"]


def test_indent_starts_every_line():
    assert wrap("aa bb cc", 20, indent="> ") == ["> aa bb cc"]


def test_indent_counts_toward_width():
    assert wrap("aa bb cc", 6, indent="  ") == ["  aa", "  bb", "  cc"]


def test_indented_lines_keep_the_rules():
    assert wrap("the quick brown fox", 14, indent="  ") == ["  the quick", "  brown fox"]
    assert wrap("a extraordinarily", 6, indent="- ") == ["- a", "- extraordinarily"]
`,
  },
  {
    instance_id: "minitext__minitext-3",
    file: "minitext/stats/count.py",
    testFile: "tests/test_count.py",
    requests: [
      `word_counts() counts "The" and "the" as different words, and "fox." apart from "fox": word_counts("The fox saw the fox.") returns {"The": 1, "fox": 1, "saw": 1, "the": 1, "fox.": 1}. Words should be compared case-insensitively (reported in lower case) and punctuation at the start or end of a word ignored, so the result is {"the": 2, "fox": 2, "saw": 1}. A token made only of punctuation, like "--", is not a word.`,
      `Review round: callers want to leave out filler words. Add an optional stopwords argument (an iterable of words, none by default) whose words are not counted. Stop words must match the way words are counted since the first round: case-insensitively and ignoring surrounding punctuation, so with stopwords=["the"] neither "The" nor "the," is counted.`,
    ],
    stage1: `"""Word counts."""

import string


def word_counts(text):
    """Return a dict mapping each word of \`text\` to how often it occurs.

    Words are compared in lower case, without the punctuation around them; a token made only
    of punctuation is not a word.
    """
    counts = {}
    for token in text.split():
        word = token.strip(string.punctuation).lower()
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
`,
    final: `"""Word counts."""

import string


def _normalise(token):
    return token.strip(string.punctuation).lower()


def word_counts(text, stopwords=()):
    """Return a dict mapping each word of \`text\` to how often it occurs.

    Words are compared in lower case, without the punctuation around them; a token made only
    of punctuation is not a word. Words in \`stopwords\`, compared the same way, are not counted.
    """
    skip = {_normalise(word) for word in stopwords}
    counts = {}
    for token in text.split():
        word = _normalise(token)
        if word and word not in skip:
            counts[word] = counts.get(word, 0) + 1
    return counts
`,
    forgetful: `"""Word counts."""


def word_counts(text, stopwords=()):
    """Return a dict mapping each word of \`text\` to how often it occurs, except stop words."""
    counts = {}
    for word in text.split():
        if word in stopwords:
            continue
        counts[word] = counts.get(word, 0) + 1
    return counts
`,
    tests: `from minitext.stats.count import word_counts


def test_words_are_compared_case_insensitively():
    assert word_counts("The fox saw the fox") == {"the": 2, "fox": 2, "saw": 1}


def test_surrounding_punctuation_is_ignored():
    assert word_counts("fox, (fox) fox.") == {"fox": 3}


def test_punctuation_alone_is_not_a_word():
    assert word_counts("a -- b") == {"a": 1, "b": 1}


def test_stopwords_are_not_counted():
    assert word_counts("the cat and the dog", stopwords=["the", "and"]) == {"cat": 1, "dog": 1}


def test_stopwords_match_like_words():
    assert word_counts("The cat, the dog.", stopwords=["the"]) == {"cat": 1, "dog": 1}
`,
  },
];

const STAGE_IDS = ["stage-1", "stage-2"];

// ---------------------------------------------------------------------------------------------



/** Near when the focus's source directory is that of any interruption (the paper's rule). */
function locality(focus, interruptions) {
  const dir = posix.dirname(focus.file);
  return interruptions.some((task) => posix.dirname(task.file) === dir) ? "near" : "far";
}

function sessionsFor(tasks) {
  const sessions = [];
  for (const focus of tasks) {
    const others = tasks.filter((task) => task !== focus);
    const where = locality(focus, others);
    const id = focus.instance_id;
    sessions.push({
      session_id: `${id}__uninterrupted`,
      focus: id,
      condition: "uninterrupted",
      locality: where,
      interruptions: [],
      schedule: [...STAGE_IDS.map((stage) => ({ task: id, stage })), { task: id, stage: FINALIZE }],
    });
    // F1, B1, C1, F2, B2, C2, finalize-F: each interruption's stage j follows the focus's stage j.
    const schedule = STAGE_IDS.flatMap((stage) => [focus, ...others].map((task) => ({ task: task.instance_id, stage })));
    sessions.push({
      session_id: `${id}__switched`,
      focus: id,
      condition: "switched",
      locality: where,
      interruptions: others.map((task) => task.instance_id),
      schedule: [...schedule, { task: id, stage: FINALIZE }],
    });
  }
  return sessions;
}

function playbookFor(tasks) {
  return {
    description: "Scripted agent for fixtures/bench-small: the files it writes at each stage of each task.",
    checkCommand: CHECK_COMMAND,
    tasks: Object.fromEntries(
      tasks.map((task) => [
        task.instance_id,
        {
          stages: {
            [STAGE_IDS[0]]: { request: task.requests[0], writes: { [task.file]: task.stage1 } },
            [STAGE_IDS[1]]: { request: task.requests[1], writes: { [task.file]: task.final } },
          },
        },
      ]),
    ),
  };
}

function readme({ base, tasks, sessions }) {
  const taskRows = tasks.map((task) => `| \`${task.instance_id}\` | \`${task.file}\` | \`${task.testFile}\` |`);
  const sessionRows = sessions.map(
    (session) => `| \`${session.session_id}\` | ${session.locality} | ${session.schedule.map((entry) => `${entry.task.slice(-1)}:${entry.stage}`).join(", ")} |`,
  );
  return `# bench-small

A three-task Switch-SWE suite for the benchmark driver's own tests. Generated by
\`node scripts/build-bench-small.mjs\` (deterministic: rerunning it rewrites identical files);
\`node scripts/check-bench-small.mjs\` verifies it with real git and pytest. Do not edit by hand.

- \`suite.json\`, \`tasks/<instance_id>/\` (\`task.json\`, \`stage-N.md\`, \`patch.diff\`, \`test_patch.diff\`), \`sessions.jsonl\`: the suite (format: \`src/bench/suite/task-folder.ts\`, \`src/bench/suite/schema.ts\`).
- \`repo.bundle\`: the repository \`${REPO}\` (all refs), a stdlib-only Python package;
  base commit \`${base}\`. Tests run from the repository root with \`python -m pytest\`.
- \`agent.json\`: the playbook of the scripted agent (\`src/bench/scripted-agent.ts\`): for each
  task and stage, the request text it recognises and the full files it writes.

## Tasks

All on the base commit; each changes one non-test file and has two stages: an issue, then a
review round that refines it. The held-out tests (\`test_patch\`, FAIL_TO_PASS) check the
review round's feature *with* the issue's rule, so a solution that forgets the first stage
fails (the paper's loss of task state). PASS_TO_PASS is \`tests/test_existing.py\`.

| task | source file | held-out tests |
|---|---|---|
${taskRows.join("\n")}

## Sessions

Every task is the focus of an uninterrupted and a switched session; the switched one is
interrupted by the two other tasks (F1, B1, C1, F2, B2, C2, finalize-F). A focus is near when
one of its interruptions changes a file in the same directory, far otherwise; both sessions of
a focus carry that locality.

| session | locality | schedule (task number:stage) |
|---|---|---|
${sessionRows.join("\n")}

## Scripted agent

For a stage request (\`<workspace>: <request>\`), the agent writes the stage's files, runs
\`${CHECK_COMMAND}\` in the workspace, then answers \`Done with <stage>.\`. Stage 1
writes the issue-only solution (it fails the review-round tests); stage 2 writes the reference
fix. For the finalization request it runs \`git status --short\` and answers \`Submitted.\`.
`;
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), "bench-small-"));
  try {
    const home = join(scratch, "home");
    const repo = join(scratch, "repo");
    mkdirSync(home);
    mkdirSync(repo);
    git(repo, home, ["init", "-q", "-b", "main"]);
    for (const [path, content] of Object.entries(BASE_FILES)) writeRepoFile(repo, path, content);
    git(repo, home, ["add", "-A"]);
    git(repo, home, ["commit", "-q", "-m", "minitext 0.1.0"]);
    const base = git(repo, home, ["rev-parse", "HEAD"]).trim();

    const existing = Object.keys(BASE_FILES)
      .filter((path) => path === "tests/test_existing.py")
      .flatMap((path) => [...BASE_FILES[path].matchAll(/^def (test_\w+)\(/gm)].map((match) => `${path}::${match[1]}`));
    const tasks = TASKS.map((task) => ({
      instance_id: task.instance_id,
      repo: REPO,
      base_commit: base,
      patch: diffOf({ repo, home, path: task.file, content: task.final }),
      test_patch: diffOf({ repo, home, path: task.testFile, content: task.tests }),
      FAIL_TO_PASS: [...task.tests.matchAll(/^def (test_\w+)\(/gm)].map((match) => `${task.testFile}::${match[1]}`),
      PASS_TO_PASS: existing,
      version: "0.1",
      stages: STAGE_IDS.map((id, index) => ({ id, request: task.requests[index] })),
      test_cmd: `python -m pytest -rA -p no:cacheprovider tests/test_existing.py ${task.testFile}`,
      repo_bundle: BUNDLE,
    }));
    const sessions = sessionsFor(TASKS);

    mkdirSync(OUT_DIR, { recursive: true });
    git(repo, home, ["bundle", "create", "-q", join(OUT_DIR, BUNDLE), "--all"]);
    const suite = {
      name: "bench-small",
      description: "Three two-stage tasks on a tiny Python repository (minitext), for the driver's own tests.",
    };
    writeFileSync(join(OUT_DIR, "suite.json"), `${JSON.stringify(suite, null, 2)}\n`);
    for (const task of tasks) await writeTaskFolder(OUT_DIR, task);
    writeFileSync(join(OUT_DIR, "sessions.jsonl"), sessions.map((session) => `${JSON.stringify(session)}\n`).join(""));
    writeFileSync(join(OUT_DIR, "agent.json"), `${JSON.stringify(playbookFor(TASKS), null, 2)}\n`);
    writeFileSync(join(OUT_DIR, "README.md"), readme({ base, tasks: TASKS, sessions }));
    console.log(base);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
