// Builds fixtures/switch-mini/: the bundled Switch-SWE mini suite, from the repository modules
// in scripts/switch-mini/*.mjs (format: scripts/switch-mini/FORMAT.md). For each repository: a
// git repository built with a fixed identity and dates (so base commits are the same on every
// machine), its bundle, its five tasks (reference patch, held-out test patch, FAIL_TO_PASS,
// PASS_TO_PASS, stages), and the scripted agent's playbook; sessions come from the driver's own
// make-sessions (four interruptions of the same repository per focus). Deterministic: a second
// run writes byte-identical files.
// Run: npm run build && node scripts/build-switch-mini.mjs   (then: node scripts/check-switch-mini.mjs)
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeSessions } from "../dist/bench/suite/make-sessions.js";
import { writeTaskFolder } from "../dist/bench/suite/task-folder.js";
import { fixtureGit } from "./lib/fixture-git.mjs";

const { git, writeRepoFile, diffOf } = fixtureGit("switch-mini");

export const OUT_DIR = join(import.meta.dirname, "..", "fixtures", "switch-mini");
const MODULES_DIR = join(import.meta.dirname, "switch-mini");
// Plug-in autoloading (hypothesis and friends in a developer's Python) costs seconds per run.
const PYTEST = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python -m pytest -p no:cacheprovider";
export const CHECK_COMMAND = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";

/** The repository modules, in name order. */
export async function loadModules() {
  const names = readdirSync(MODULES_DIR).filter((file) => file.endsWith(".mjs")).sort();
  const modules = [];
  for (const file of names) modules.push((await import(pathToFileURL(join(MODULES_DIR, file)).href)).default);
  return modules;
}

export function instanceID(module, task) {
  return `${module.name}__${module.name}-${task.n}`;
}




function validate(modules) {
  const requests = new Set();
  for (const module of modules) {
    if (!/^[a-z0-9]+$/.test(module.name)) throw new Error(`${module.name}: name must be [a-z0-9]+`);
    const files = new Set();
    for (const task of module.tasks) {
      const where = `${module.name} task ${task.n}`;
      if (files.has(task.file)) throw new Error(`${where}: ${task.file} is changed by another task too`);
      files.add(task.file);
      if (task.stages.length < 2 || task.stages.length > 4) throw new Error(`${where}: needs 2 to 4 stages`);
      const ids = new Set(task.stages.map((stage) => stage.id));
      if (ids.size !== task.stages.length) throw new Error(`${where}: stage ids repeat`);
      for (const stage of task.stages) {
        if (requests.has(stage.request)) throw new Error(`${where}: request text of ${stage.id} is used twice`);
        requests.add(stage.request);
      }
    }
  }
}

/** Builds one repository; returns its tasks (suite lines) and playbook entries. */
function buildRepository(module, scratch) {
  const home = join(scratch, `${module.name}-home`);
  const repo = join(scratch, module.name);
  mkdirSync(home);
  mkdirSync(repo);
  git(repo, home, ["init", "-q", "-b", "main"]);
  for (const [path, content] of Object.entries(module.baseFiles)) writeRepoFile(repo, path, content);
  git(repo, home, ["add", "-A"]);
  git(repo, home, ["commit", "-q", "-m", `${module.name} 0.1.0`]);
  const base = git(repo, home, ["rev-parse", "HEAD"]).trim();
  const bundle = `repos/${module.name}.bundle`;
  mkdirSync(join(OUT_DIR, "repos"), { recursive: true });
  git(repo, home, ["bundle", "create", "-q", join(OUT_DIR, bundle), "--all"]);
  const tasks = module.tasks.map((task) => ({
    instance_id: instanceID(module, task),
    repo: module.repo,
    base_commit: base,
    patch: diffOf({ repo, home, path: task.file, content: task.stages.at(-1).content }),
    test_patch: diffOf({ repo, home, path: task.heldOutTests.path, content: task.heldOutTests.content }),
    FAIL_TO_PASS: task.heldOutTests.nodeIds,
    PASS_TO_PASS: module.existingTests,
    version: "0.1",
    stages: task.stages.map((stage) => ({ id: stage.id, request: stage.request })),
    test_cmd: `${PYTEST} -rA tests/test_existing.py ${task.heldOutTests.path}`,
    repo_bundle: bundle,
  }));
  const playbook = Object.fromEntries(
    module.tasks.map((task) => [
      instanceID(module, task),
      { stages: Object.fromEntries(task.stages.map((stage) => [stage.id, { request: stage.request, writes: { [task.file]: stage.content } }])) },
    ]),
  );
  return { base, tasks, playbook };
}

function readme({ modules, bases, tasks, sessions }) {
  const repoRows = modules.map((module) => `| \`${module.repo}\` | \`repos/${module.name}.bundle\` | \`${bases[module.name]}\` |`);
  const taskRows = modules.flatMap((module) =>
    module.tasks.map((task) => `| \`${instanceID(module, task)}\` | \`${task.file}\` | ${task.stages.length} | \`${task.heldOutTests.path}\` (${task.heldOutTests.nodeIds.length}) |`),
  );
  const near = sessions.filter((session) => session.condition === "switched" && session.locality === "near").length;
  const far = sessions.filter((session) => session.condition === "switched" && session.locality === "far").length;
  return `# switch-mini

The bundled Switch-SWE mini suite: ${modules.length} small standard-library Python repositories,
${tasks.length} tasks of 2 to 4 stages (an issue, then review rounds that refine it), and
${sessions.length} sessions: every task as the focus of an uninterrupted session and of a switched
one interrupted by the four other tasks of its repository (${near} near, ${far} far).

Generated by \`npm run build && node scripts/build-switch-mini.mjs\` from the repository modules in
\`scripts/switch-mini/\` (deterministic); \`node scripts/check-switch-mini.mjs\` verifies every
task with real git and pytest. Do not edit by hand.

Later stages refine earlier ones: each task's held-out tests check the last stage's feature
*with* the earlier stages' rules, so a solution that forgets an earlier constraint fails (the
paper's loss of task state). PASS_TO_PASS is each repository's \`tests/test_existing.py\`.

\`agent.json\` is the scripted agent's playbook (\`src/bench/scripted-agent.ts\`): for each stage
request it recognises, the files it writes; then it runs \`${CHECK_COMMAND}\`. It is a
harness for the pipeline, not a model: it acts on the request text alone.

| repository | bundle | base commit |
|---|---|---|
${repoRows.join("\n")}

| task | source file | stages | held-out tests |
|---|---|---|---|
${taskRows.join("\n")}
`;
}

async function main() {
  const modules = await loadModules();
  validate(modules);
  const scratch = mkdtempSync(join(tmpdir(), "switch-mini-"));
  try {
    rmSync(OUT_DIR, { recursive: true, force: true });
    mkdirSync(OUT_DIR, { recursive: true });
    const tasks = [];
    const playbookTasks = {};
    const bases = {};
    for (const module of modules) {
      const built = buildRepository(module, scratch);
      tasks.push(...built.tasks);
      Object.assign(playbookTasks, built.playbook);
      bases[module.name] = built.base;
    }
    const { sessions, warnings } = makeSessions(tasks, { interruptions: 4, seed: 1 });
    if (warnings.length > 0) throw new Error(`make-sessions: ${warnings.join("; ")}`);
    const suite = {
      name: "switch-mini",
      description: `${tasks.length} tasks on ${modules.length} small Python repositories; every task uninterrupted and switched with four interruptions.`,
    };
    const playbook = { description: "Scripted agent for fixtures/switch-mini.", checkCommand: CHECK_COMMAND, tasks: playbookTasks };
    writeFileSync(join(OUT_DIR, "suite.json"), `${JSON.stringify(suite, null, 2)}\n`);
    for (const task of tasks) await writeTaskFolder(OUT_DIR, task);
    writeFileSync(join(OUT_DIR, "sessions.jsonl"), sessions.map((session) => `${JSON.stringify(session)}\n`).join(""));
    writeFileSync(join(OUT_DIR, "agent.json"), `${JSON.stringify(playbook, null, 2)}\n`);
    writeFileSync(join(OUT_DIR, "README.md"), readme({ modules, bases, tasks, sessions }));
    console.log(`${tasks.length} tasks, ${sessions.length} sessions, ${modules.length} repositories: ${Object.values(bases).join(" ")}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
