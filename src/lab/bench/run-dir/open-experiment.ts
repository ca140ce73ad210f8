import { readFile, writeFile } from "node:fs/promises";
import { messageOf } from "../../../kit/errors/message-of.js";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import type { Mode } from "../../../plugin/config/modes.js";
import { type Condition, DEFAULT_CONDITIONS } from "../suite/schema.js";
import { grownConditions, grownModes, isDefaultConditions, type RunJson, RunJsonSchema, type RunSetting, settingDifferences } from "./experiment.js";
import { readResults } from "./read-results.js";
import { runFiles } from "./run-files.js";

/** What a bench run asks of its run directory. */
export interface ExperimentRequest {
  suiteDir: string;
  setting: RunSetting;
  /** The agent as chosen, kept to start it again. */
  agent: unknown;
  modes: readonly Mode[];
  /** The conditions asked, in CONDITIONS order (default: DEFAULT_CONDITIONS). */
  conditions?: readonly Condition[] | undefined;
  sessions: number;
  shard?: string | undefined;
  /** How many session runs the directory is to hold for these modes, sessions and conditions. */
  runsPlanned: (modes: readonly Mode[], sessions: number, conditions: readonly Condition[]) => number;
}

/** The run.json the run goes on with, and what this run added to an existing experiment. */
export interface OpenedExperiment {
  run: RunJson;
  /** "added modes memory, full" and the like; empty for a new directory or a plain resume. */
  added: string[];
  /** The directory held an experiment already, with this many result lines. */
  made: boolean;
  done: number;
}

/**
 * Makes `outDir` one experiment, or goes on with the one it holds. A directory made with
 * other settings (or whose result lines say they ran with other settings) is refused with
 * both settings shown; a rerun that only adds modes or sessions grows it, recorded in run.json.
 * A shard's modes and sessions are fixed: they decide which session runs are its share.
 */
export async function openExperiment(outDir: string, asked: ExperimentRequest, options: { dryRun?: boolean } = {}): Promise<OpenedExperiment> {
  const files = runFiles(outDir);
  const made = await readRunJson(files.run);
  const lines = await readResults(files.results);
  const refuse = (what: string, differences: { field: string; made: string; asked: string }[]) => {
    const rows = differences.map((difference) => `  ${difference.field}: ${difference.made} (${what}) vs ${difference.asked} (this command)`);
    throw new RcmError(
      "run",
      `${outDir} holds another experiment; running into it would put this command's settings on its results:\n${rows.join("\n")}\nUse a new --out, or rerun with the settings it was made with (a rerun may only add --modes, --sessions or --conditions).`,
    );
  };
  if (made !== undefined) {
    // A run.json from before the setting was kept is compared on what it kept.
    const kept = new Set(Object.keys(made.setting));
    const differences = settingDifferences(made.setting, asked.setting).filter(
      (difference) => made.legacy !== true || kept.has(difference.field) || difference.field === "regime" || difference.field === "model",
    );
    if ((made.shard ?? "") !== (asked.shard ?? "")) differences.push({ field: "shard", made: made.shard ?? "(none)", asked: asked.shard ?? "(none)" });
    if (differences.length > 0) refuse("run.json", differences);
  }
  for (const line of lines) {
    if (line.setting === undefined) continue;
    const differences = settingDifferences(line.setting, asked.setting);
    if (differences.length > 0) refuse(`results.jsonl, ${line.session_id} in ${line.mode}`, differences);
  }
  const modes = made === undefined ? [...asked.modes] : grownModes(made.modes, asked.modes);
  const sessions = Math.max(made?.sessions ?? 0, asked.sessions);
  const askedConditions = asked.conditions ?? DEFAULT_CONDITIONS;
  const conditions = made === undefined ? [...askedConditions] : grownConditions(made.conditions, askedConditions);
  const added = made === undefined ? [] : additions(made, modes, sessions, conditions);
  if (added.length > 0 && asked.shard !== undefined) {
    throw new RcmError(
      "run",
      `${outDir} is shard ${asked.shard}: its modes and sessions decide its share of the session runs, so this run cannot add ${added.join(" and ")}. Run the addition as a new experiment (a new --out for every shard).`,
    );
  }
  const run: RunJson = {
    suite: made?.suite ?? asked.suiteDir,
    setting: asked.setting,
    agent: asked.agent,
    modes,
    sessions,
    ...(isDefaultConditions(conditions) ? {} : { conditions }),
    ...(asked.shard === undefined ? {} : { shard: asked.shard }),
    runs_planned: asked.runsPlanned(modes, sessions, conditions),
    ...(made?.extended || added.length > 0
      ? {
          extended: [
            ...(made?.extended ?? []),
            ...(added.length > 0 ? [{ modes: modes.filter((mode) => !made?.modes.includes(mode)), sessions, ...newConditions(made, conditions) }] : []),
          ],
        }
      : {}),
  };
  if (options.dryRun !== true) await writeFile(files.run, `${JSON.stringify(run, null, 2)}\n`);
  return { run, added, made: made !== undefined, done: lines.length };
}

function additions(
  made: Pick<RunJson, "modes" | "sessions" | "conditions">,
  modes: readonly Mode[],
  sessions: number,
  conditions: readonly Condition[],
): string[] {
  const newModes = modes.filter((mode) => !made.modes.includes(mode));
  const added = newConditions(made, conditions).conditions ?? [];
  return [
    ...(newModes.length > 0 ? [`modes ${newModes.join(", ")}`] : []),
    ...(sessions > made.sessions ? [`sessions ${made.sessions + 1}-${sessions}`] : []),
    ...(added.length > 0 ? [`conditions ${added.join(", ")}`] : []),
  ];
}

/** The conditions a rerun adds to the run's (none said in run.json: the default ones), as an `extended` entry's field. */
function newConditions(made: Pick<RunJson, "conditions"> | undefined, conditions: readonly Condition[]): { conditions?: Condition[] } {
  const had = grownConditions(made?.conditions, []);
  const added = conditions.filter((condition) => !had.includes(condition));
  return added.length > 0 ? { conditions: added } : {};
}

/**
 * The run.json of an existing directory, made to the current shape: one from before the
 * setting was kept gives what it had (its agent, seed, budget and threshold), so those are
 * still compared; a missing one gives undefined.
 */
type MadeRun = Omit<RunJson, "setting"> & { setting: Partial<RunSetting>; legacy?: true };

async function readRunJson(file: string): Promise<MadeRun | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new RcmError("run", `${file}: not JSON (${messageOf(error)}): not a run directory this driver made`);
  }
  const parsed = RunJsonSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  if (value.setting !== undefined) throw new RcmError("run", `${file}: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
  return legacyRunJson(value);
}

function legacyRunJson(value: Record<string, unknown>): MadeRun {
  const agent = (value.agent ?? {}) as Record<string, unknown>;
  const kind = agent.kind;
  const setting: Partial<RunSetting> = {
    ...(kind === "scripted" || kind === "faithful" || kind === "model" ? { agent: kind } : {}),
    ...(typeof agent.regime === "string" ? { regime: agent.regime } : kind === "scripted" || kind === "faithful" ? { regime: "roomy" } : {}),
    ...(typeof agent.model === "string" ? { model: agent.model } : {}),
    ...(typeof value.seed === "number" ? { seed: value.seed } : {}),
    ...(typeof value.budgetMs === "number" ? { budget_ms: value.budgetMs } : {}),
    ...(typeof value.confidenceThreshold === "number" ? { confidence_threshold: value.confidenceThreshold } : {}),
  };
  const modes = Array.isArray(value.modes) ? (value.modes as Mode[]) : [];
  const sessions = typeof value.sessions === "number" ? value.sessions : 0;
  return {
    suite: String(value.suite ?? ""),
    setting,
    agent: value.agent,
    modes,
    sessions,
    ...(typeof value.shard === "string" ? { shard: value.shard } : {}),
    runs_planned: 0,
    legacy: true,
  };
}
