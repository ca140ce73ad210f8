#!/usr/bin/env node
// The CLI corpus: recorded invocations of opencode-rcm (every command's help, the evaluations on the
// bundled fixtures, the session commands on a recorded state dir, bad options and unknown commands),
// run through two builds; prints which differ in stdout, stderr or exit status.
//
//   node scripts/cli-corpus.mjs <before/dist/cli.js> [<after/dist/cli.js>]   (default after: this checkout's dist/cli.js)
//   node scripts/cli-corpus.mjs --list                                        (the invocations, one a line)
//
// Each invocation runs in the same sandbox for both builds (a fresh copy of the state before each
// run, so a command that changes it changes nothing the next one reads), with stdin closed and an
// environment of PATH, HOME and the XDG folders only. Long runs (demo, bench run, bench mini) are
// covered by their help, their bad options and a dry run. Exit status: 0 when all are identical.

import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STATE = join(ROOT, "fixtures", "cli-corpus", "state");
const PROJECT_ID = "corpus1";
const SESSION = "ses_dd632b3cbffe2RcQvKCoab7xrt"; // two tasks, t1 with a memory record

/** Invocations whose output changed on purpose (compared all the same, reported apart), with why. */
const CHANGED_ON_PURPOSE = new Map([
  ["opencode-rcm toString", "a name every object inherits was taken for a command (an internal error); now an unknown command"],
  ["opencode-rcm bench constructor", "the same for a subcommand"],
]);

/** Every invocation: its arguments ({dir} and {tmp} are the sandbox's project and scratch folders). */
function invocations() {
  const commands = [
    ...["demo", "route-eval", "memory-eval", "bench", "report", "sessions", "status", "why", "tasks", "show", "move", "split", "off", "on"],
    ...["help", "recall", "check"],
  ];
  const bench = ["mini", "run", "merge", "score", "report", "check", "make-sessions", "import-swebench", "export-predictions", "import-reports"];
  const list = [
    [],
    ["help"],
    ["--help"],
    ["-h"],
    ["--version"],
    ["-v"],
    ["help", "status"],
    ...commands.flatMap((command) => [
      [command, "--help"],
      [command, "-h"],
    ]),
    ...bench.flatMap((sub) => [
      ["bench", sub, "--help"],
      ["bench", sub, "-h"],
    ]),
    ["bench", "--help", "run"],
    ["bench", "nope", "--help"],
    ["nope", "--help"],
    ["bench", "run", "--suite", "x", "--help"],
    ["status", "--bogus", "--help"],
    // Unknown commands and subcommands, with and without a suggestion.
    ["frobnicate"],
    ["stauts"],
    ["Status"],
    ["sesions"],
    ["hlep"],
    ["run", "--suite", "s"],
    ["merge"],
    ["bench"],
    ["bench", "dance"],
    ["bench", "rnu"],
    ["bench", "make-session"],
    ["bench", "--bogus"],
    ["--bogus"],
    ["-x"],
    ["--json", "route-eval"],
    ["toString"],
    ["bench", "constructor"],
    // --opencode-bin anywhere; a binary that is not there.
    ["--opencode-bin"],
    ["--opencode-bin="],
    ["route-eval", "--opencode-bin"],
    ["--opencode-bin", "/nonexistent/opencode", "route-eval", "fixtures/routing/labelled-sessions.jsonl", "--json"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl", "--opencode-bin=/nonexistent/opencode", "--json"],
    ["demo", "--opencode-bin", "/nonexistent/opencode"],
    ["bench", "mini", "--opencode-bin", "/nonexistent/opencode", "--sessions", "1", "--out", "{tmp}/mini"],
    // route-eval on the bundled sets.
    ["route-eval"],
    ["route-eval", "--json"],
    ["route-eval", "--verbose"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl", "--json"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl", "--ids", "gold", "--threshold", "0.5"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl", "--wrong-edits=0.2", "--json"],
    ["route-eval", "fixtures/routing-chat/sessions.jsonl"],
    ["route-eval", "fixtures/routing-corpus/test", "fixtures/routing/labelled-sessions.jsonl", "--threshold=0.9"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl", "--plot", "{tmp}/reliability.svg"],
    ["route-eval", "fixtures/routing/labelled-sessions.jsonl", "--router", "model"],
    ["route-eval", "{tmp}/bad.jsonl"],
    ["route-eval", "{tmp}/missing.jsonl"],
    // route-eval's bad options: every kind node:util's strict parse and the declarations reject.
    ["route-eval", "--bogus"],
    ["route-eval", "--bogus=1"],
    ["route-eval", "-x"],
    ["route-eval", "-abc"],
    ["route-eval", "--router", "turbo"],
    ["route-eval", "--router"],
    ["route-eval", "--router", "--json"],
    ["route-eval", "--router="],
    ["route-eval", "--threshold", "2"],
    ["route-eval", "--threshold", "x"],
    ["route-eval", "--ids", "nope"],
    ["route-eval", "--wrong-edits", "-1"],
    ["route-eval", "--json=1"],
    ["route-eval", "--json=false"],
    ["route-eval", "--no-json"],
    ["route-eval", "--dryRun"],
    ["route-eval", "--", "--json"],
    ["route-eval", "-"],
    ["route-eval", "--verbose", "--router", "model", "--threshold", "3"],
    // memory-eval on the bundled sets.
    ["memory-eval", "fixtures/requirements/dev"],
    ["memory-eval", "fixtures/requirements/dev", "--json"],
    ["memory-eval", "fixtures/requirements/dev", "--verbose"],
    ["memory-eval", "fixtures/requirements/test"],
    ["memory-eval", "fixtures/requirements-apart"],
    ["memory-eval", "fixtures/requirements-register", "--json"],
    ["memory-eval", "fixtures/requirements-register/terse-chat.jsonl", "--verbose"],
    ["memory-eval"],
    ["memory-eval", "fixtures/requirements-register", "--updater", "model"],
    ["memory-eval", "fixtures/requirements-register", "--updater", "x"],
    ["memory-eval", "fixtures/requirements-register", "--bogus"],
    ["memory-eval", "{tmp}/missing"],
    // The session commands on the recorded state dir.
    ["sessions"],
    ["sessions", "--all"],
    ["sessions", "--dir", "{dir}/src"],
    ["sessions", "--dir", "{tmp}"],
    ["sessions", "extra"],
    ["sessions", "--state-dir", "{state}"],
    ["status"],
    ["status", "latest"],
    ["status", SESSION],
    ["status", SESSION.slice(0, 10)],
    ["status", "ses_nope"],
    ["status", "a", "b"],
    ["status", "--dir"],
    ["why"],
    ["why", SESSION],
    ["tasks"],
    ["tasks", "latest"],
    ["show", "t1"],
    ["show", SESSION, "t1"],
    ["show", SESSION, "t1", "--as-model"],
    ["show", "t2"],
    ["show", "t9"],
    ["show"],
    ["show", "a", "b", "c"],
    ["move", SESSION, "t2"],
    ["move", SESSION, "1", "t2"],
    ["move", SESSION, "2..", "new"],
    ["move", SESSION, "t9"],
    ["move", "a", "b", "c"],
    ["move"],
    ["split", SESSION, "t2"],
    ["split"],
    ["off", SESSION],
    ["on", SESSION],
    ["off", "a", "b"],
    // demo, bench: help (above), bad options, dry runs, quick errors.
    ["demo", "--mode", "turbo"],
    ["demo", "--bogus"],
    ["demo", "extra"],
    ["bench", "run"],
    ["bench", "run", "--out", "o", "--agent", "scripted"],
    ["bench", "run", "--modes", "x"],
    ["bench", "run", "--suite", "s", "--out", "o"],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--model", "a/b"],
    ["bench", "run", "--suite", "s", "--out", "o", "--model", "gpt"],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--modes", "native,turbo"],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--concurrency", "0"],
    ["bench", "run", "--suite", "s", "--out", "o", "--env", "cloud"],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--regime", "huge"],
    ["bench", "run", "--suite", "s", "--out", "o", "--regime", "tight"],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--image", "x"],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--shard", "3/2"],
    ["bench", "run", "--suite", "fixtures/switch-mini", "--out", "{tmp}/run", "--agent", "scripted", "--dry-run"],
    ["bench", "run", "--suite", "fixtures/switch-mini", "--out", "{tmp}/run", "--model", "p/m", "--modes", "native", "--sessions", "2", "--dry-run"],
    ["bench", "run", "--suite", "fixtures/bench-small", "--out", "{tmp}/run", "--agent", "faithful", "--shard", "1/2", "--dry-run"],
    [
      "bench",
      "run",
      "--suite",
      "fixtures/switch-mini",
      "--out",
      "{tmp}/run",
      "--agent",
      "faithful",
      "--conditions",
      "switched,resumed",
      "--sessions",
      "4",
      "--dry-run",
    ],
    ["bench", "run", "--suite", "s", "--out", "o", "--agent", "scripted", "--conditions", "resumed,later"],
    ["bench", "mini", "--dry-run"],
    ["bench", "mini", "--dry-run", "--regimes", "tight", "--modes", "native,full", "--out", "{tmp}/mini"],
    ["bench", "mini", "--regimes", "roomy,huge"],
    ["bench", "mini", "--model", "p/m", "--regimes", "tight"],
    ["bench", "mini", "--bogus"],
    ["bench", "mini", "--sessions"],
    ["bench", "check", "fixtures/switch-mini", "--cheap"],
    ["bench", "check", "fixtures/bench-small", "--cheap", "--json"],
    ["bench", "check"],
    ["bench", "check", "{tmp}/nosuite", "--cheap"],
    ["bench", "import-swebench", "--out", "x"],
    ["bench", "import-swebench", "--instances", "{tmp}/missing.jsonl", "--out", "{tmp}/suite"],
    ["bench", "make-sessions"],
    ["bench", "make-sessions", "--suite", "{tmp}/nosuite"],
    ["bench", "merge", "a"],
    ["bench", "merge", "{tmp}/a", "{tmp}/b", "--out", "{tmp}/merged"],
    ["bench", "score"],
    ["bench", "score", "{tmp}/norun"],
    ["bench", "report", "{tmp}/norun"],
    ["bench", "export-predictions", "r", "--condition", "x"],
    ["bench", "export-predictions", "r", "--mode", "x"],
    ["bench", "export-predictions", "{tmp}/norun"],
    ["bench", "import-reports", "r"],
    ["report"],
    ["report", "r", "--cache-read-price", "2"],
    ["report", "{tmp}/norun", "--cache-read-price", "0.1"],
  ];
  return list;
}

/** A fresh sandbox: the recorded state under XDG_DATA_HOME, its project folder, a scratch folder. */
async function prepare(sandbox) {
  await rm(sandbox, { recursive: true, force: true });
  const dir = join(sandbox, "project");
  const tmp = join(sandbox, "tmp");
  const data = join(sandbox, "data");
  const state = join(data, "opencode", "rcm", PROJECT_ID);
  await mkdir(join(dir, "src"), { recursive: true });
  await mkdir(tmp, { recursive: true });
  await mkdir(join(sandbox, "home"), { recursive: true });
  await mkdir(join(sandbox, "config"), { recursive: true });
  await cp(STATE, state, { recursive: true });
  const project = JSON.parse(await readFile(join(state, "project.json"), "utf8"));
  project.data.worktree = dir;
  project.data.directories = [dir];
  await writeFile(join(state, "project.json"), JSON.stringify(project));
  // Fixed, distinct ages (older than a day: printed as dates), so "latest" and the order never depend on the clock.
  const sessions = (await readdir(join(state, "sessions"))).sort();
  for (const [index, name] of sessions.entries()) {
    const when = new Date(Date.UTC(2025, 0, 1 + index));
    await utimes(join(state, "sessions", name), when, when);
  }
  const latest = new Date(Date.UTC(2025, 1, 1));
  await utimes(join(state, "sessions", `${SESSION}.json`), latest, latest);
  await writeFile(join(tmp, "bad.jsonl"), `${JSON.stringify({ id: "s", requests: [{ text: "x", task: "a" }] })}\n{"id": "t", "requests": [{"text": "y"}]}\n`);
  return {
    dir,
    tmp,
    state,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: join(sandbox, "home"),
      XDG_DATA_HOME: data,
      XDG_CONFIG_HOME: join(sandbox, "config"),
    },
  };
}

function run(cli, args, place) {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { cwd: place.dir, env: place.env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === "number" ? error.code : String(error.signal ?? error.code)) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

function expand(args, place) {
  return args.map((arg) =>
    arg
      .replaceAll("{dir}", place.dir)
      .replaceAll("{tmp}", place.tmp)
      .replaceAll("{state}", place.state)
      .replace(/^fixtures\//, `${ROOT}/fixtures/`)
      .replace(/=fixtures\//, `=${ROOT}/fixtures/`),
  );
}

/**
 * What differs whatever the code: the folders of the build and of this checkout, whose fixtures the
 * invocations name (both printed as <package>), and the demo's scratch folder (mkdtemp's random suffix).
 */
function masked(result, packageRoot) {
  const mask = (text) =>
    text
      .replaceAll(packageRoot, "<package>")
      .replaceAll(ROOT, "<package>")
      .replace(/(opencode-rcm-demo-)[A-Za-z0-9]{6}/g, "$1XXXXXX");
  return { ...result, stdout: mask(result.stdout), stderr: mask(result.stderr) };
}

function firstDifference(a, b) {
  let index = 0;
  while (index < a.length && a[index] === b[index]) index += 1;
  const line = a.slice(0, index).split("\n").length;
  return `line ${line}: ${JSON.stringify(a.slice(index, index + 80))} vs ${JSON.stringify(b.slice(index, index + 80))}`;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === "--list") {
    for (const args of invocations()) console.log(["opencode-rcm", ...args].join(" "));
    return 0;
  }
  if (argv.length < 1 || argv.length > 2) {
    console.error("usage: node scripts/cli-corpus.mjs <before/dist/cli.js> [<after/dist/cli.js>]");
    return 2;
  }
  const [before, after] = [resolve(argv[0]), resolve(argv[1] ?? join(ROOT, "dist", "cli.js"))];
  const sandbox = await mkdtemp(join(tmpdir(), "rcm-cli-corpus-"));
  const list = invocations();
  const differing = [];
  const onPurpose = [];
  let beforeMs = 0;
  let afterMs = 0;
  try {
    for (const args of list) {
      const results = [];
      for (const [index, cli] of [before, after].entries()) {
        const place = await prepare(join(sandbox, "s"));
        const started = performance.now();
        results.push(masked(await run(cli, expand(args, place), place), dirname(dirname(cli))));
        if (index === 0) beforeMs += performance.now() - started;
        else afterMs += performance.now() - started;
      }
      const [a, b] = results;
      const parts = ["code", "stdout", "stderr"].filter((part) => a[part] !== b[part]);
      const shown = ["opencode-rcm", ...args].join(" ");
      if (parts.length === 0) continue;
      const why = CHANGED_ON_PURPOSE.get(shown);
      if (why === undefined) differing.push(shown);
      else onPurpose.push(shown);
      console.log(`${why === undefined ? "DIFFERS" : `CHANGED ON PURPOSE (${why})`}: ${shown}`);
      for (const part of parts) console.log(`  ${part}: ${part === "code" ? `${a.code} vs ${b.code}` : firstDifference(String(a[part]), String(b[part]))}`);
    }
  } finally {
    await rm(sandbox, { recursive: true, force: true });
  }
  const seconds = (ms) => (ms / 1000).toFixed(1);
  console.log(
    `${list.length} invocations: ${list.length - differing.length - onPurpose.length} identical (stdout, stderr and exit status), ` +
      `${onPurpose.length} changed on purpose, ${differing.length} differ otherwise; ` +
      `${seconds(beforeMs)} s in ${before}, ${seconds(afterMs)} s in ${after}`,
  );
  return differing.length === 0 ? 0 : 1;
}

process.exitCode = await main();
