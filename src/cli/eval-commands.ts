import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../kit/package-root.js";
import { modelUpdaterFromEnv, renderMemoryEval, runMemoryEval } from "../lab/memory-eval/run-memory-eval.js";
import { TASK_IDS } from "../lab/route-eval/evaluate-routing.js";
import { renderReliabilitySvg } from "../lab/route-eval/render-reliability-svg.js";
import { renderRouteEval, routeEvalJson } from "../lab/route-eval/render-route-eval.js";
import { runRouteEval } from "../lab/route-eval/run-route-eval.js";
import { DEFAULT_OPTIONS, ROUTERS } from "../plugin/config/options-schema.js";
import { defineCli, mustBeEither, mustBeOneOf } from "./declare.js";

/** `opencode-rcm route-eval`: a router online over labelled sessions. */
export const routeEvalCommand = defineCli({
  name: "route-eval",
  description: "Run a router online over labelled sessions and report how well it routes.",
  details: `Reports accuracy, fallback rate, confident-wrong rate (all, harmful, merge), calibration (ECE and a
reliability table), new-task precision/recall, and the same per session shape and style. Days that list
earlier sessions ("earlier") also report resumptions of their unfinished tasks: resumed right, resumed wrong,
missed, per style and register.`,
  args: {
    paths: {
      type: "positional",
      variadic: true,
      description:
        "<file.jsonl | directory>...: one JSON session per line; a directory means every *.jsonl in it; default: the held-out test split this package ships, fixtures/routing-corpus/test",
    },
    router: {
      type: "enum",
      options: ROUTERS,
      default: "lexical",
      description: "model and hybrid use RCM_AUX_BASE_URL, RCM_AUX_MODEL and the key in RCM_AUX_API_KEY; hybrid asks only when unsure",
      invalid: mustBeOneOf("got"),
    },
    threshold: { type: "number", min: 0, max: 1, default: DEFAULT_OPTIONS.confidenceThreshold, description: "confidence below which the full history is kept" },
    json: {
      type: "boolean",
      description:
        "print {n, accuracy, fallbackRate, confidentWrongRate, newTaskPrecision, newTaskRecall, harmfulConfidentWrongRate, mergeConfidentWrongRate, expectedCalibrationError, ...}",
    },
    ids: {
      type: "enum",
      options: TASK_IDS,
      default: "shown",
      description: "a request's task ids (t3) as the plug-in showed the gold task, or as the writers numbered gold tasks",
      invalid: mustBeOneOf("got"),
    },
    "wrong-edits": {
      type: "number",
      min: 0,
      max: 1,
      default: 0,
      description: "share of turns (fixed by a hash of session and position) whose work edits another task's file instead of their own",
    },
    plot: { type: "string", valueHint: "file.svg", description: "write a reliability diagram" },
    verbose: { type: "boolean", description: "list every decision, not only the wrong ones" },
  },
  async run(args, { io, env }) {
    // The held-out split ships with the package, so an install can check the router without the repository.
    const paths = args.paths.length > 0 ? args.paths : [join(packageRoot(), "fixtures", "routing-corpus", "test")];
    const { threshold } = args;
    const evaluation = await runRouteEval({ paths, router: args.router, threshold, env, ids: args.ids, wrongEdits: args["wrong-edits"] });
    if (args.plot !== undefined) {
      const title = `${evaluation.router} router on ${paths.map((path) => path.replace(/\/+$/, "").split("/").slice(-2).join("/")).join(", ")}`;
      await writeFile(args.plot, renderReliabilitySvg({ reliability: evaluation.reliability, title, threshold }));
    }
    io.stdout.write(`${args.json ? routeEvalJson(evaluation) : renderRouteEval(evaluation, { verbose: args.verbose })}\n`);
    return 0;
  },
});

/** `opencode-rcm memory-eval`: the extractive memory updater against labelled requirement clauses. */
export const memoryEvalCommand = defineCli({
  name: "memory-eval",
  description: "Score a memory updater's constraints (extractive by default) against labelled requirement clauses.",
  details: "The labelled clauses: fixtures/requirements. Precision and recall per clause, per file.",
  misuse: () => "memory-eval takes one or more files (or directories) of labelled requests",
  args: {
    paths: { type: "positional", variadic: true, required: true, description: "<file.jsonl | directory>...: labelled requests" },
    updater: {
      type: "enum",
      options: ["extractive", "model"] as const,
      default: "extractive",
      invalid: mustBeEither,
      description: "model: the record the model updater writes for each request, its endpoint from RCM_AUX_BASE_URL, RCM_AUX_MODEL and RCM_AUX_API_KEY",
    },
    json: { type: "boolean", description: "print {requests, gold, predicted, matched, precision, recall}" },
    verbose: { type: "boolean", description: "list every missed and extra clause" },
  },
  async run(args, { io, env }) {
    const updater = args.updater === "model" ? modelUpdaterFromEnv(env) : undefined;
    const evaluation = await runMemoryEval(args.paths, updater ? { updater } : {});
    io.stdout.write(`${args.json ? JSON.stringify(evaluation.total) : renderMemoryEval(evaluation, { verbose: args.verbose, updater: args.updater })}\n`);
    return 0;
  },
});
