// Builds what is derived in fixtures/switch-mini/: the repositories' git bundles, from
// scripts/switch-mini/<name>/ (repository.json and files/: the repository at its base commit),
// committed with a fixed identity and dates so base commits are the same on every machine; then
// sessions.jsonl (the driver's own make-sessions: four interruptions of the same repository per
// focus) and README.md. The tasks (fixtures/switch-mini/tasks/<id>/: task.json, stage-N.md,
// patch.diff, test_patch.diff, checks/) and agent.json are sources, edited by hand; the build
// fails if a task's base_commit is not its bundle's. Deterministic: a second run writes
// byte-identical files.
// Run: npm run build && node scripts/build-switch-mini.mjs   (then: node scripts/check-switch-mini.mjs)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isTestPath } from "../dist/lab/bench/patch/is-test-path.js";
import { patchFiles } from "../dist/lab/bench/patch/patch-files.js";
import { loadTasks } from "../dist/lab/bench/suite/load-suite.js";
import { makeSessions } from "../dist/lab/bench/suite/make-sessions.js";
import { fixtureGit } from "./lib/fixture-git.mjs";
import { readTree } from "./lib/read-tree.mjs";

const { git, writeRepoFile } = fixtureGit("switch-mini");

export const OUT_DIR = join(import.meta.dirname, "..", "fixtures", "switch-mini");
const SOURCES_DIR = join(import.meta.dirname, "switch-mini");
export const CHECK_COMMAND = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";

/** The repositories in name order: `{name, repo}` from repository.json, and their files. */
function loadRepositories() {
  return readdirSync(SOURCES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = join(SOURCES_DIR, name);
      const meta = JSON.parse(readFileSync(join(dir, "repository.json"), "utf8"));
      if (meta.name !== name || !/^[a-z0-9]+$/.test(name)) throw new Error(`${dir}/repository.json: name must be the folder's name, [a-z0-9]+`);
      return { ...meta, files: readTree(join(dir, "files")) };
    });
}

/** Commits a repository's files and writes its bundle; returns its base commit. */
function buildRepository(repository, scratch) {
  const home = join(scratch, `${repository.name}-home`);
  const repo = join(scratch, repository.name);
  mkdirSync(home);
  mkdirSync(repo);
  git(repo, home, ["init", "-q", "-b", "main"]);
  for (const [path, content] of Object.entries(repository.files)) writeRepoFile(repo, path, content);
  git(repo, home, ["add", "-A"]);
  git(repo, home, ["commit", "-q", "-m", `${repository.name} 0.1.0`]);
  mkdirSync(join(OUT_DIR, "repos"), { recursive: true });
  git(repo, home, ["bundle", "create", "-q", join(OUT_DIR, "repos", `${repository.name}.bundle`), "--all"]);
  return git(repo, home, ["rev-parse", "HEAD"]).trim();
}

function readme({ repositories, bases, tasks, sessions }) {
  const repoRows = repositories.map((repository) => `| \`${repository.repo}\` | \`repos/${repository.name}.bundle\` | \`${bases[repository.name]}\` |`);
  const taskRows = tasks.map((task) => {
    const source = patchFiles(task.patch).filter((path) => !isTestPath(path));
    const heldOut = patchFiles(task.test_patch).filter((path) => isTestPath(path));
    return `| \`${task.instance_id}\` | \`${source.join(", ")}\` | ${task.stages.length} | \`${heldOut.join(", ")}\` (${task.FAIL_TO_PASS.length}) |`;
  });
  const near = sessions.filter((session) => session.condition === "switched" && session.locality === "near").length;
  const far = sessions.filter((session) => session.condition === "switched" && session.locality === "far").length;
  return `# switch-mini

The bundled Switch-SWE mini suite: ${repositories.length} small standard-library Python repositories,
${tasks.length} tasks of 2 to 4 stages (an issue, then review rounds that refine it), and
${sessions.length} sessions: every task as the focus of an uninterrupted session and of a switched
one interrupted by the four other tasks of its repository (${near} near, ${far} far).

Each task is a folder, \`tasks/<instance_id>/\`: \`task.json\`, the requests \`stage-N.md\`, the
reference \`patch.diff\`, the held-out \`test_patch.diff\`, and \`checks/forgetful/\` (the last
stage's file without an earlier stage's rule, which must not resolve the task). They and
\`agent.json\` are edited by hand. \`npm run build && node scripts/build-switch-mini.mjs\` builds
the rest (deterministic): the bundles from the repositories in \`scripts/switch-mini/<name>/\`,
\`sessions.jsonl\` and this README; \`node scripts/check-switch-mini.mjs\` verifies every task with
real git and pytest.

Later stages refine earlier ones: each task's held-out tests check the last stage's feature
*with* the earlier stages' rules, so a solution that forgets an earlier constraint fails (the
paper's loss of task state). PASS_TO_PASS is each repository's \`tests/test_existing.py\`.

\`agent.json\` is the scripted agents' playbook (\`src/lab/bench/agent/\`): for each stage request,
the files a correct agent writes; then it runs \`${CHECK_COMMAND}\`. The replay agent
(\`--agent scripted\`) plays it on the request text alone: a harness for the pipeline, which
resolves everything. The faithful agent (\`--agent faithful\`, \`bench mini\`'s default) writes what
the requirements the call showed it imply, from each task's \`faithful/\` folder:

- \`rules.json\`: per stage, the phrase of its request that states its requirement (found in no
  other request of the suite); a stage counts as seen when the call's words (requests,
  summaries, memory records; not tool calls or results) contain it, compared lower-cased,
  without backticks, whitespace collapsed;
- \`<stage>/without-<stages>/\`: the stage's files when those earlier stages are out of view,
  written from the visible requests alone (where a later request restates the lost rule, the
  variant keeps it and the task still resolves);
- \`confusions.json\` and \`<stage>/with-<task>.<stage>/\`: another task's requirement that the
  agent applies here when it sees it (the two tasks share a word). The suite's pair:
  \`minicfg__minicfg-4\` (\`expand()\`) takes \`minicfg__minicfg-3\`'s "an empty variable must count as
  unset" (\`lookup()\`), so a set-but-empty variable no longer expands to nothing.

Scripted agents measure the mechanism, not a model's quality.

| repository | bundle | base commit |
|---|---|---|
${repoRows.join("\n")}

| task | source file | stages | held-out tests |
|---|---|---|---|
${taskRows.join("\n")}
`;
}

async function main() {
  const repositories = loadRepositories();
  const scratch = mkdtempSync(join(tmpdir(), "switch-mini-"));
  try {
    const bases = {};
    for (const repository of repositories) bases[repository.name] = buildRepository(repository, scratch);
    const tasks = await loadTasks(OUT_DIR);
    for (const task of tasks) {
      const name = /^repos\/(\w+)\.bundle$/.exec(task.repo_bundle ?? "")?.[1];
      if (name === undefined || bases[name] === undefined)
        throw new Error(`${task.instance_id}: repo_bundle "${task.repo_bundle}" is not one of the built bundles`);
      if (task.base_commit !== bases[name])
        throw new Error(`${task.instance_id}: base_commit ${task.base_commit} is not ${name}'s base ${bases[name]}: update its task.json`);
    }
    const { sessions, warnings } = makeSessions(tasks, { interruptions: 4, seed: 1 });
    if (warnings.length > 0) throw new Error(`make-sessions: ${warnings.join("; ")}`);
    writeFileSync(join(OUT_DIR, "sessions.jsonl"), sessions.map((session) => `${JSON.stringify(session)}\n`).join(""));
    writeFileSync(join(OUT_DIR, "README.md"), readme({ repositories, bases, tasks, sessions }));
    console.log(`${tasks.length} tasks, ${sessions.length} sessions, ${repositories.length} repositories: ${Object.values(bases).join(" ")}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
