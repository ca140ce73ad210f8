// Suites and SWE-bench interop: `bench check`, `make-sessions`, `import-swebench`, `export-predictions`, `import-reports`.

import { join, resolve } from "node:path";
import { type CheckLevel, checkSuite } from "../lab/bench/check/check-suite.js";
import { checkJson, renderCheck } from "../lab/bench/check/render-check.js";
import { loadSuite, loadTasks } from "../lab/bench/suite/load-suite.js";
import { makeSessions, writeSessions } from "../lab/bench/suite/make-sessions.js";
import { CONDITIONS } from "../lab/bench/suite/schema.js";
import { importReports } from "../lab/bench/swebench/import-reports.js";
import { importSwebench } from "../lab/bench/swebench/import-swebench.js";
import { exportPredictions } from "../lab/bench/swebench/predictions.js";
import { MODES } from "../plugin/config/options-schema.js";
import { oneRunDir, RUN_DIR, withBenchIo } from "./bench-io.js";
import { defineCli, mustBeOneOf } from "./declare.js";

export const checkCommand = defineCli({
  name: "check",
  description: "Check a suite's ground truth before running it: its test ids, localities and agent files, then each task's tests.",
  details: [
    "Cheap checks (milliseconds): every FAIL_TO_PASS and PASS_TO_PASS test is in a file the test command runs, each",
    "session's locality is the definition's, agent.json and the tasks' faithful/ folders match the suite.",
    "Then, unless --cheap, for each task in a fresh clone: with the test patch alone every FAIL_TO_PASS fails and",
    "every PASS_TO_PASS passes; with the reference patch too every one passes; the test command runs every one.",
    "Prints one line per problem (<file>[:<line>]: <field>: <problem>) and a summary; exit status 1 when there are problems.",
  ].join("\n"),
  misuse: () => "bench check takes exactly one suite directory",
  args: {
    suite: { type: "positional", required: true, description: "<suite dir>: the suite to check" },
    cheap: { type: "boolean", description: "only the cheap checks: no checkout, no tests" },
    tasks: { type: "string", valueHint: "id,id", description: "run the tests of these tasks only (the cheap checks cover every task)" },
    concurrency: { type: "number", integer: true, min: 1, default: 2, description: "tasks whose tests run at once" },
    json: { type: "boolean", description: "print the check as JSON" },
  },
  async run(args, context) {
    const level: CheckLevel = args.cheap ? "cheap" : "full";
    const tasks = args.tasks
      ?.split(",")
      .map((id) => id.trim())
      .filter((id) => id !== "");
    let problems = 0;
    const status = await withBenchIo(context, async ({ signal }) => {
      const suite = await loadSuite(resolve(args.suite));
      const check = await checkSuite({
        suite,
        level,
        tasks,
        concurrency: args.concurrency,
        signal,
        onTask: (event) =>
          context.io.stderr.write(
            `[check] ${event.task}: ${event.problems === 0 ? "ok" : `${event.problems} problem${event.problems === 1 ? "" : "s"}`} (${Math.round(event.ms / 1000)} s)\n`,
          ),
      });
      problems = check.problems.length;
      return args.json ? checkJson(check) : renderCheck(check);
    });
    return status === 0 && problems > 0 ? 1 : status;
  },
});

export const makeSessionsCommand = defineCli({
  name: "make-sessions",
  description: "Build sessions.jsonl from the suite's tasks as the paper does.",
  args: {
    suite: { type: "string", required: true, valueHint: "dir", description: "the suite" },
    interruptions: { type: "number", integer: true, min: 0, default: 4, description: "interruptions per switched session" },
    seed: { type: "number", integer: true, min: 0, default: 1, description: "the seed" },
  },
  run: (args, context) =>
    withBenchIo(context, async () => {
      const tasks = await loadTasks(resolve(args.suite));
      const { sessions, warnings } = makeSessions(tasks, { interruptions: args.interruptions, seed: args.seed });
      const file = await writeSessions(resolve(args.suite), sessions);
      return `${[...warnings.map((warning) => `warning: ${warning}`), `${sessions.length} sessions written to ${file}`].join("\n")}\n`;
    }),
});

export const importSwebenchCommand = defineCli({
  name: "import-swebench",
  description: "Turn SWE-bench instances (their published fields) into a suite, a folder per task.",
  details: "Then: bench make-sessions --suite <suite dir>.",
  missing: "bench import-swebench needs --instances <file.jsonl> and --out <suite dir>",
  args: {
    instances: { type: "string", required: true, valueHint: "file.jsonl", description: "SWE-bench instances" },
    stages: {
      type: "string",
      valueHint: "file.jsonl",
      description: "{instance_id, stages: [{id, request}]} per line (default: the problem statement as the one stage)",
    },
    out: { type: "string", required: true, valueHint: "suite dir", description: "the new suite" },
    bundles: { type: "string", valueHint: "dir", description: "git bundles named <owner>__<name>.bundle; a repository without one is cloned from --repo-url" },
    "repo-url": { type: "string", valueHint: "https://github.com/{repo}.git", description: "where a repository is cloned from; {repo} is its owner/name" },
    "test-cmd": { type: "string", valueHint: "... {tests}", description: "the command that runs the tests" },
    name: { type: "string", description: "the suite's name (default: the --out folder's name)" },
  },
  run: (args, context) =>
    withBenchIo(context, async () => {
      const result = await importSwebench({
        instances: args.instances,
        stages: args.stages,
        out: args.out,
        bundles: args.bundles,
        repoUrl: args["repo-url"],
        testCmd: args["test-cmd"],
        name: args.name,
      });
      return `${result.tasks} tasks (${result.staged} with stages) written to ${result.suite}\nnext: opencode-rcm bench make-sessions --suite ${result.suite}\n`;
    }),
});

export const exportPredictionsCommand = defineCli({
  name: "export-predictions",
  description: "Write <run>/predictions/<mode>.<condition>.jsonl for SWE-bench's run_evaluation.",
  args: {
    run: RUN_DIR,
    mode: { type: "enum", options: MODES, description: "only this mode", invalid: mustBeOneOf("not") },
    condition: { type: "enum", options: CONDITIONS, description: "only this condition", invalid: mustBeOneOf("not") },
  },
  misuse: oneRunDir("bench export-predictions"),
  run: (args, context) =>
    withBenchIo(context, async () => `${(await exportPredictions({ run: args.run, mode: args.mode, condition: args.condition })).join("\n")}\n`),
});

export const importReportsCommand = defineCli({
  name: "import-reports",
  description: "Read the harness's report.json files back into results.jsonl and report.md.",
  args: { run: RUN_DIR, reports: { type: "positional", required: true, description: "<harness logs dir>: SWE-bench's run_evaluation logs" } },
  misuse: () => "bench import-reports needs <run dir> <harness logs dir>",
  async run(args, context) {
    const dir = args.run;
    return withBenchIo(context, async () => {
      const summary = await importReports({ run: dir, reports: args.reports });
      const unmatched = summary.unmatched.map((file) => `warning: no result of this run for ${file}`);
      return `${[...unmatched, `${summary.updated} results updated from ${summary.reports} report.json files; ${join(resolve(dir), "report.md")} rebuilt`].join("\n")}\n`;
    });
  },
});
