import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import { parseJsonLine } from "../../jsonl/read-jsonl.js";
import { readResults } from "../run-dir/read-results.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { runFiles } from "../run-dir/run-files.js";

/** What SWE-bench's `run_evaluation --predictions_path` reads, one object per line. */
export const PredictionSchema = z
  .object({
    instance_id: z.string().min(1),
    model_name_or_path: z.string().regex(/^[\w.+-]+$/, "must be usable as a folder name"),
    model_patch: z.string(),
  })
  .strict();
type Prediction = z.infer<typeof PredictionSchema>;

/**
 * The name a run's predictions carry for one mode and condition: the agent, the mode and the
 * condition, so the harness's logs (`logs/run_evaluation/<run_id>/<name>/<instance_id>/`)
 * keep them apart and `bench import-reports` can read them back.
 */
function predictionName(agent: string, mode: string, condition: string): string {
  return `${agent.replace(/[^\w.+-]+/g, "_")}__rcm-${mode}__${condition}`;
}

export function parsePredictionName(name: string): { mode: string; condition: string } | undefined {
  const found = /__rcm-(native|router|memory|full)__(uninterrupted|switched|resumed)$/.exec(name);
  return found ? { mode: found[1] as string, condition: found[2] as string } : undefined;
}

/**
 * Writes `<run>/predictions/<mode>.<condition>.jsonl` for each mode and condition in the run
 * (or the ones asked for): one prediction per focus task, its patch the focus workspace's,
 * named for the agent each line says it ran with (run.json's for lines from before they said).
 */
export async function exportPredictions(options: { run: string; mode?: string | undefined; condition?: string | undefined }): Promise<string[]> {
  const run = resolve(options.run);
  const results = await readResults(runFiles(run).results);
  const runAgent = await runAgentLabel(run);
  const groups = new Map<string, ResultLine[]>();
  for (const line of results) {
    if ((options.mode !== undefined && line.mode !== options.mode) || (options.condition !== undefined && line.condition !== options.condition)) continue;
    const key = `${line.mode}.${line.condition}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  if (groups.size === 0)
    throw new RcmError(
      "run",
      `${runFiles(run).results}: no results${options.mode || options.condition ? ` for ${[options.mode, options.condition].filter(Boolean).join(" ")}` : ""}`,
    );
  await mkdir(join(run, "predictions"), { recursive: true });
  const written: string[] = [];
  for (const [key, lines] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const predictions: Prediction[] = [];
    for (const line of [...lines].sort((a, b) => a.focus.localeCompare(b.focus))) {
      const patch = await readFile(join(runFiles(run).session(line.session_id, line.mode), "focus.patch"), "utf8").catch(() => "");
      const agent = (line.setting ? agentLabel(line.setting) : undefined) ?? runAgent;
      predictions.push(
        PredictionSchema.parse({ instance_id: line.focus, model_name_or_path: predictionName(agent, line.mode, line.condition), model_patch: patch }),
      );
    }
    const file = join(run, "predictions", `${key}.jsonl`);
    await writeFile(file, predictions.map((prediction) => `${JSON.stringify(prediction)}\n`).join(""));
    written.push(file);
  }
  return written;
}

/** The agent as a run names it: `{ kind, model }` (run.json's `agent`) or `{ agent, model }` (a line's or run.json's `setting`). */
const AgentNamingSchema = z.looseObject({
  kind: z.string().optional(),
  agent: z.string().optional(),
  model: z.string().optional(),
});

/** The label predictions carry for an agent: a provider's model id, `faithful` or `scripted`; undefined when it names none. */
export function agentLabel(value: unknown): string | undefined {
  const parsed = AgentNamingSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const kind = parsed.data.agent ?? parsed.data.kind;
  if (kind === "model") return parsed.data.model ? parsed.data.model.replaceAll("/", "__") : undefined;
  return kind === "scripted" || kind === "faithful" ? kind : undefined;
}

/** The agent of a run from its run.json (its setting, else the agent as chosen); `scripted` when it says none. */
async function runAgentLabel(run: string): Promise<string> {
  const text = await readFile(runFiles(run).run, "utf8").catch(() => undefined);
  const json = text === undefined ? undefined : parseJsonLine(text);
  const fields = z.looseObject({ setting: z.unknown(), agent: z.unknown() }).safeParse(json?.ok ? json.value : undefined);
  if (!fields.success) return "scripted";
  return agentLabel(fields.data.setting) ?? agentLabel(fields.data.agent) ?? "scripted";
}
