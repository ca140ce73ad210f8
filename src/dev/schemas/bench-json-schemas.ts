import { z } from "zod";
import { ConfusionsSchema, FaithfulRulesSchema } from "../../lab/bench/agent/faithful-playbook.js";
import { PlaybookSchema } from "../../lab/bench/agent/playbook.js";
import { ResultLineSchema } from "../../lab/bench/run-dir/result-line.js";
import { SessionSpecSchema, SuiteMetaSchema, TaskSchema } from "../../lab/bench/suite/schema.js";
import { TaskFileSchema } from "../../lab/bench/suite/task-folder.js";

/** One published JSON schema of a bench file: where it goes under `schemas/`, and the schema. */
interface BenchJsonSchema {
  /** The file's name in `schemas/`. */
  file: string;
  schema: Record<string, unknown>;
}

/** The folder of the bench's JSON schemas, at the package's root. */
export const BENCH_SCHEMAS_DIR = "schemas";

const DOC = "docs/benchmark-formats.md";

/**
 * The JSON schemas of the suite's files and of a results.jsonl line, generated from their zod
 * schemas (the one source of truth; `npm run schema` writes them). Rules across fields or files
 * (a session's schedule against its tasks, a rule phrase against agent.json's requests) are
 * not expressible in them: the loaders check those and name the file and field.
 */
function benchJsonSchemas(): BenchJsonSchema[] {
  return [
    described(SuiteMetaSchema, {
      file: "suite.schema.json",
      title: "suite.json",
      anchor: "suitejson",
      description: "A Switch-SWE suite's suite.json: what the suite is.",
    }),
    { file: "task.schema.json", schema: taskFileSchema() },
    described(TaskSchema, {
      file: "task-line.schema.json",
      title: "tasks.jsonl line (legacy)",
      anchor: "legacy-tasksjsonl",
      description: "One line of a legacy tasks.jsonl: a task with its patches and requests inline. Exactly one of repo_url and repo_bundle.",
      extra: { oneOf: [{ required: ["repo_url"] }, { required: ["repo_bundle"] }] },
    }),
    described(SessionSpecSchema, {
      file: "session.schema.json",
      title: "sessions.jsonl line",
      anchor: "sessionsjsonl",
      description: "One line of a suite's sessions.jsonl: a focus task, uninterrupted or switched, and the requests sent in order.",
    }),
    described(PlaybookSchema, {
      file: "agent.schema.json",
      title: "agent.json",
      anchor: "agentjson",
      description:
        "A suite's agent.json, played by bench run --agent scripted and --agent faithful (not needed with --model): for each stage of each task, its request and the full files a correct agent writes.",
    }),
    described(FaithfulRulesSchema, {
      file: "faithful-rules.schema.json",
      title: "tasks/<id>/faithful/rules.json",
      anchor: "faithfulrulesjson",
      description: "For --agent faithful: the phrase of each stage's request that states its requirement, by stage id.",
    }),
    described(ConfusionsSchema, {
      file: "faithful-confusions.schema.json",
      title: "tasks/<id>/faithful/confusions.json",
      anchor: "faithfulconfusionsjson",
      description: "For --agent faithful (optional): other tasks' requirements this task's stages apply when they see them.",
    }),
    described(ResultLineSchema, {
      file: "result-line.schema.json",
      title: "results.jsonl line",
      anchor: "resultsjsonl",
      description: "One line of a run directory's results.jsonl: one session run in one mode, scored.",
    }),
  ];
}

/** Every schema as its file holds it: two-space indent, final newline. */
export function renderBenchJsonSchemas(): { file: string; text: string }[] {
  return benchJsonSchemas().map(({ file, schema }) => ({ file, text: `${JSON.stringify(schema, null, 2)}\n` }));
}

function described(
  zodSchema: z.ZodType,
  options: { file: string; title: string; anchor: string; description: string; extra?: Record<string, unknown> },
): BenchJsonSchema {
  const { $schema, description: _generated, ...generated } = z.toJSONSchema(zodSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return {
    file: options.file,
    schema: { $schema, title: options.title, description: `${options.description} See ${DOC}#${options.anchor}.`, ...generated, ...options.extra },
  };
}

/**
 * task.json: TaskFileSchema's fields (the task's fields but the texts, which are files beside it),
 * each with TaskSchema's constraints and description, which the loader applies once the files are
 * read, plus the rule that exactly one of repo_url and repo_bundle is given.
 */
function taskFileSchema(): Record<string, unknown> {
  const file = described(TaskFileSchema, {
    file: "task.schema.json",
    title: "tasks/<id>/task.json",
    anchor: "task-folders",
    description:
      "A task folder's task.json: the SWE-bench instance's fields but the texts, which are files beside it (stage-1.md, stage-2.md..., patch.diff, test_patch.diff). Exactly one of repo_url and repo_bundle.",
  }).schema;
  const full = z.toJSONSchema(TaskSchema, { io: "input", unrepresentable: "any" }) as { properties: Record<string, unknown> };
  const properties = Object.fromEntries(
    Object.entries(file.properties as Record<string, unknown>).map(([name, property]) => [name, full.properties[name] ?? property]),
  );
  return { ...file, properties, oneOf: [{ required: ["repo_url"] }, { required: ["repo_bundle"] }] };
}
