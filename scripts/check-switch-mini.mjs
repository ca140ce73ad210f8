// switch-mini's own extra checks, with the driver's own scorer, real git and real pytest. The
// general check of any suite's ground truth (test ids, localities, agent.json, faithful/
// folders, each task's tests before and after its reference patch) is `opencode-rcm bench check
// <suite>`; this script adds what only a suite built like switch-mini has: for every task, two
// wrong solutions do not resolve it: stage 1 alone (the files the scripted agent's playbook
// writes for it), and the task's checks/forgetful/ files (the last stage without an earlier
// stage's rule). Then the faithful agent's files (tasks/*/faithful/): every last-stage variant
// passes the existing tests, and is reported with the held-out tests it fails (none, when a
// later request restates the lost rule); every confusable variant (another task's requirement
// leaked in) fails the task. It also checks each task's base and reference patch, as bench check does.
// Run: npm run build && node scripts/check-switch-mini.mjs [<suite dir>]   (default: fixtures/switch-mini)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { loadFaithfulPlaybook } from "../dist/lab/bench/agent/faithful-playbook.js";
import { focusPatch, scoreTask } from "../dist/lab/bench/score/index.js";
import { loadSuite } from "../dist/lab/bench/suite/load-suite.js";
import { OUT_DIR } from "./build-switch-mini.mjs";
import { readTree } from "./lib/read-tree.mjs";

const [given, ...extra] = process.argv.slice(2);
if (extra.length > 0 || given?.startsWith("-")) {
  console.error("usage: node scripts/check-switch-mini.mjs [<suite dir>]   (the general check of any suite: opencode-rcm bench check <suite>)");
  process.exit(2);
}
const SUITE_DIR = given === undefined ? OUT_DIR : resolve(given);
console.log(`checking ${SUITE_DIR}`);
const suite = await loadSuite(SUITE_DIR);
const playbook = JSON.parse(readFileSync(join(SUITE_DIR, "agent.json"), "utf8"));
const faithful = await loadFaithfulPlaybook(SUITE_DIR);
const scratch = mkdtempSync(join(tmpdir(), "check-switch-mini-"));
let failures = 0;

/** A patch that writes `files` (path -> content), made the way the driver makes focus patches. */
async function patchFor(task, files, name) {
  const dir = join(scratch, name);
  execFileSync("git", ["clone", "-q", resolve(SUITE_DIR, task.repo_bundle), dir]);
  execFileSync("git", ["checkout", "-q", "--detach", task.base_commit], { cwd: dir });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return focusPatch(dir, task.base_commit);
}

/** path -> content of the files under a task's checks/<name>/; undefined when the suite has no such folder. */
function checkFiles(task, name) {
  const dir = join(SUITE_DIR, "tasks", task.instance_id, "checks", name);
  return existsSync(dir) ? readTree(dir) : undefined;
}

async function score(task, patch, name) {
  return scoreTask({ task, repoSource: resolve(SUITE_DIR, task.repo_bundle), patch, workDir: join(scratch, `${name}-score`), timeoutMs: 120_000 });
}

/** One task's checks, as [ok, what] lines in order (tasks run two at a time; their lines print in suite order). */
async function checkTask(task) {
  const lines = [];
  const expect = (ok, what) => lines.push([ok, what]);
  const id = task.instance_id;
  const base = await score(task, null, `${id}-base`);
  const f2p = base.tests_status.FAIL_TO_PASS;
  const p2p = base.tests_status.PASS_TO_PASS;
  expect(
    !base.resolved && f2p.success.length === 0 && p2p.failure.length === 0,
    `${id}: base fails all ${f2p.failure.length} held-out tests, passes ${p2p.success.length} existing`,
  );
  const reference = await score(task, task.patch, `${id}-reference`);
  expect(reference.resolved, `${id}: the reference patch resolves it`);
  const first = await score(task, await patchFor(task, playbook.tasks[id].stages[task.stages[0].id].writes, `${id}-stage1`), `${id}-stage1`);
  expect(
    !first.resolved && first.tests_status.PASS_TO_PASS.failure.length === 0,
    `${id}: stage 1 alone does not resolve it (${first.tests_status.FAIL_TO_PASS.failure.length} held-out tests fail)`,
  );
  const forgetfulFiles = checkFiles(task, "forgetful");
  if (forgetfulFiles === undefined) {
    expect(false, `${id}: no checks/forgetful/ folder (the files of the last stage without an earlier stage's rule)`);
  } else {
    const forgetful = await score(task, await patchFor(task, forgetfulFiles, `${id}-forgetful`), `${id}-forgetful`);
    expect(
      !forgetful.resolved,
      `${id}: forgetting an earlier stage's rule does not resolve it (${forgetful.tests_status.FAIL_TO_PASS.failure.length} held-out tests fail)`,
    );
  }
  const last = faithful.tasks.get(id).stages.at(-1);
  for (const [missing, files] of last.without) {
    const name = `${id}-without-${missing}`;
    const report = await score(task, await patchFor(task, files, name), name);
    const failing = report.tests_status.FAIL_TO_PASS.failure.length;
    expect(
      report.tests_status.PASS_TO_PASS.failure.length === 0,
      `${id}: ${last.id} without ${missing} passes the existing tests; ${failing === 0 ? "resolves it (a later request restates the rule)" : `${failing} held-out tests fail`}`,
    );
  }
  for (const confusion of last.confusions) {
    const name = `${id}-with-${confusion.with.replace("/", ".")}`;
    const report = await score(task, await patchFor(task, confusion.writes, name), name);
    expect(
      !report.resolved && report.tests_status.PASS_TO_PASS.failure.length === 0,
      `${id}: ${last.id} with ${confusion.with}'s requirement does not resolve it (${report.tests_status.FAIL_TO_PASS.failure.length} held-out tests fail)`,
    );
  }
  return lines;
}

/** `work` over `items`, `width` at a time, results in the items' order. */
async function inTurns(items, width, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

try {
  // Two at a time: each check is a checkout and a pytest run, mostly process start-up.
  for (const lines of await inTurns(suite.tasks, 2, checkTask)) {
    for (const [ok, what] of lines) {
      console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
      if (!ok) failures += 1;
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(failures === 0 ? "switch-mini: all checks passed" : `switch-mini: ${failures} checks failed`);
process.exit(failures === 0 ? 0 : 1);
