// Builds what is derived in fixtures/bench-small/ (a three-task Switch-SWE suite over a tiny
// stdlib-only Python repository, for the benchmark driver's own tests): the bundle, from
// scripts/bench-small/ (repository.json and files/), committed with a fixed identity and dates
// so the base commit is the same on every machine; sessions.jsonl; README.md. The tasks
// (fixtures/bench-small/tasks/<id>/) and agent.json are sources, edited by hand; the build
// fails if a task's base_commit is not the bundle's. Deterministic.
// Run: npm run build && node scripts/build-bench-small.mjs; check with node scripts/check-bench-small.mjs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { isTestPath } from "../dist/lab/bench/patch/is-test-path.js";
import { patchFiles } from "../dist/lab/bench/patch/patch-files.js";
import { loadTasks } from "../dist/lab/bench/suite/load-suite.js";
import { fixtureGit } from "./lib/fixture-git.mjs";
import { readTree } from "./lib/read-tree.mjs";

const { git, writeRepoFile } = fixtureGit("minitext");
const SOURCE_DIR = join(import.meta.dirname, "bench-small");

export const OUT_DIR = join(import.meta.dirname, "..", "fixtures", "bench-small");
export const REPO = "minitext/minitext";
export const BUNDLE = "repo.bundle";
export const CHECK_COMMAND = "python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";

const FINALIZE = "finalize";

/** The one non-test file a task's reference patch changes. */
const sourceFile = (task) => patchFiles(task.patch).filter((path) => !isTestPath(path))[0] ?? "";
const testFile = (task) => patchFiles(task.test_patch).filter((path) => isTestPath(path))[0] ?? "";

/** Near when the focus's source directory is that of any interruption (the paper's rule). */
function locality(focus, interruptions) {
  const dir = posix.dirname(sourceFile(focus));
  return interruptions.some((task) => posix.dirname(sourceFile(task)) === dir) ? "near" : "far";
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
      schedule: [...focus.stages.map((stage) => ({ task: id, stage: stage.id })), { task: id, stage: FINALIZE }],
    });
    // F1, B1, C1, F2, B2, C2, finalize-F: each interruption's stage j follows the focus's stage j.
    const schedule = focus.stages.flatMap((stage) => [focus, ...others].map((task) => ({ task: task.instance_id, stage: stage.id })));
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

function readme({ base, tasks, sessions }) {
  const taskRows = tasks.map((task) => `| \`${task.instance_id}\` | \`${sourceFile(task)}\` | \`${testFile(task)}\` |`);
  const sessionRows = sessions.map(
    (session) =>
      `| \`${session.session_id}\` | ${session.locality} | ${session.schedule.map((entry) => `${entry.task.slice(-1)}:${entry.stage}`).join(", ")} |`,
  );
  return `# bench-small

A three-task Switch-SWE suite for the benchmark driver's own tests. The tasks
(\`tasks/<instance_id>/\`: \`task.json\`, \`stage-N.md\`, \`patch.diff\`, \`test_patch.diff\`, and
\`checks/forgetful/\`, the last stage without the first stage's rule) and \`agent.json\` are
edited by hand; \`node scripts/build-bench-small.mjs\` builds the rest (deterministic): the
bundle from \`scripts/bench-small/\` (\`repository.json\`, \`files/\`), \`sessions.jsonl\` and this
README. \`node scripts/check-bench-small.mjs\` verifies it with real git and pytest.

- \`suite.json\`, \`tasks/\`, \`sessions.jsonl\`: the suite (format: \`src/lab/bench/suite/task-folder.ts\`, \`src/lab/bench/suite/schema.ts\`).
- \`repo.bundle\`: the repository \`${REPO}\` (all refs), a stdlib-only Python package;
  base commit \`${base}\`. Tests run from the repository root with \`python -m pytest\`.
- \`agent.json\`: the playbook of the scripted agent (\`src/lab/bench/agent/replay-agent.ts\`): for each
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
    for (const [path, content] of Object.entries(readTree(join(SOURCE_DIR, "files")))) writeRepoFile(repo, path, content);
    git(repo, home, ["add", "-A"]);
    git(repo, home, ["commit", "-q", "-m", "minitext 0.1.0"]);
    const base = git(repo, home, ["rev-parse", "HEAD"]).trim();
    const tasks = await loadTasks(OUT_DIR);
    for (const task of tasks) {
      if (task.base_commit !== base)
        throw new Error(`${task.instance_id}: base_commit ${task.base_commit} is not the bundle's base ${base}: update its task.json`);
    }
    const sessions = sessionsFor(tasks);
    mkdirSync(OUT_DIR, { recursive: true });
    git(repo, home, ["bundle", "create", "-q", join(OUT_DIR, BUNDLE), "--all"]);
    writeFileSync(join(OUT_DIR, "sessions.jsonl"), sessions.map((session) => `${JSON.stringify(session)}\n`).join(""));
    writeFileSync(join(OUT_DIR, "README.md"), readme({ base, tasks, sessions }));
    console.log(base);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
