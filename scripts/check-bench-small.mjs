// Verifies fixtures/bench-small/ with real git and pytest. For every task, in a fresh clone of
// repo.bundle at the base commit with the held-out test patch applied:
//   base                        FAIL_TO_PASS all fail, PASS_TO_PASS all pass
//   + reference patch           everything passes
//   + agent.json stage 1 files  some FAIL_TO_PASS test fails (the review round matters)
//   + agent.json stage 2 files  everything passes
//   + "forgetful" stage 2       some FAIL_TO_PASS test fails (stage 1's rule is tested)
// Prints one line per check and exits 1 if any fails. Run: `node scripts/check-bench-small.mjs`.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadTasks } from "../dist/lab/bench/suite/load-suite.js";
import { BUNDLE, OUT_DIR } from "./build-bench-small.mjs";
import { readTree } from "./lib/read-tree.mjs";

const STATUS_LINE = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)/gm;

function git(cwd, args) {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" },
  });
}

function checkout({ scratch, name, task }) {
  const dir = join(scratch, name);
  git(scratch, ["clone", "-q", join(OUT_DIR, BUNDLE), name]);
  git(dir, ["checkout", "-q", task.base_commit]);
  const head = git(dir, ["rev-parse", "HEAD"]).trim();
  if (head !== task.base_commit) throw new Error(`${name}: HEAD is ${head}, not ${task.base_commit}`);
  return dir;
}

function applyPatch(dir, patch) {
  const file = join(dir, "..", `${dir.split("/").pop()}.diff`);
  writeFileSync(file, patch);
  git(dir, ["apply", file]);
}

function writeFiles(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Runs the task's test command and returns a map node id -> pytest status. */
function runTests(dir, task) {
  const result = spawnSync("sh", ["-c", task.test_cmd], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  const statuses = new Map();
  for (const match of result.stdout.matchAll(STATUS_LINE)) statuses.set(match[2], match[1]);
  return statuses;
}

const passes = (statuses, id) => ["PASSED", "XFAIL"].includes(statuses.get(id));

function summary(statuses, task) {
  const f2p = task.FAIL_TO_PASS.filter((id) => passes(statuses, id)).length;
  const p2p = task.PASS_TO_PASS.filter((id) => passes(statuses, id)).length;
  return `F2P ${f2p}/${task.FAIL_TO_PASS.length} pass, P2P ${p2p}/${task.PASS_TO_PASS.length} pass`;
}

const tasks = await loadTasks(OUT_DIR);
const playbook = JSON.parse(readFileSync(join(OUT_DIR, "agent.json"), "utf8"));
const scratch = mkdtempSync(join(tmpdir(), "check-bench-small-"));
let failures = 0;

function check(label, ok, detail) {
  if (!ok) failures += 1;
  console.log(`${ok ? "ok  " : "FAIL"} ${label}: ${detail}`);
}

try {
  for (const task of tasks) {
    const id = task.instance_id;
    const forgetful = readTree(join(OUT_DIR, "tasks", id, "checks", "forgetful"));
    const stages = playbook.tasks[id].stages;
    const allPass = (statuses) => [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].every((test) => passes(statuses, test));
    const someF2PFails = (statuses) => task.FAIL_TO_PASS.some((test) => !passes(statuses, test)) && task.PASS_TO_PASS.every((test) => passes(statuses, test));
    /** @type {Array<[string, (dir: string) => void, (statuses: unknown) => boolean]>} */
    const variants = [
      ["base", () => {}, (s) => task.FAIL_TO_PASS.every((test) => !passes(s, test)) && task.PASS_TO_PASS.every((test) => passes(s, test))],
      ["reference patch", (dir) => applyPatch(dir, task.patch), allPass],
      ["agent stage-1 only", (dir) => writeFiles(dir, stages["stage-1"].writes), someF2PFails],
      [
        "agent stage-1 then stage-2",
        (dir) => {
          for (const stage of task.stages) writeFiles(dir, stages[stage.id].writes);
        },
        allPass,
      ],
      ["forgetful stage-2", (dir) => writeFiles(dir, forgetful), someF2PFails],
    ];
    variants.forEach(([label, prepare, expected], index) => {
      const dir = checkout({ scratch, name: `${id}-${index}`, task });
      applyPatch(dir, task.test_patch);
      prepare(dir);
      const statuses = runTests(dir, task);
      check(`${id} ${label}`, expected(statuses), summary(statuses, task));
    });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(failures === 0 ? "bench-small: all checks passed" : `bench-small: ${failures} check(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
