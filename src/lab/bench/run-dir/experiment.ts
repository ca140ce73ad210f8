import { z } from "zod";
import { MODES, type Mode } from "../../../plugin/config/modes.js";
import { FALLBACKS } from "../../../plugin/core/context/narrow-to-task.js";
import { CONDITIONS, type Condition, DEFAULT_CONDITIONS } from "../suite/schema.js";

/**
 * What a run directory's results were made with, fixed when the directory is made: run.json
 * keeps it and every result line carries a copy, so a report or a merge reads what each line
 * ran with and a rerun cannot put its own label over another experiment's results.
 */
export const RunSettingSchema = z
  .object({
    suite: z.string().describe("The suite's name (suite.json)."),
    suite_sha256: z.string().describe("SHA-256 over every file of the suite directory: an edited suite is another experiment."),
    agent: z.enum(["scripted", "faithful", "model"]).describe("Who did the work: a scripted agent, or a provider's model through OpenCode."),
    regime: z.string().optional().describe("The scripted agents' model window (roomy, tight)."),
    model: z.string().optional().describe("With agent model: the OpenCode provider/model."),
    seed: z.number(),
    budget_ms: z.number().describe("Per request, before it is aborted and continued."),
    max_continuations: z.number(),
    test_timeout_ms: z.number().describe("Per test run while scoring."),
    confidence_threshold: z.number().describe("The plug-in's routing threshold."),
    fallback: z.enum(FALLBACKS).describe("What the plug-in gives the model below the threshold."),
    plugin_version: z.string().describe("opencode-rcm's version."),
    env: z.string().describe("Where sessions ran: local or docker."),
    image: z.string().optional().describe("With env docker: the image template."),
    host: z.string().optional().describe("Which OpenCode ran the sessions: opencode-1 (1.18) or opencode-2; a run made before this was kept ran opencode-1."),
    host_version: z.string().optional().describe("The version the host's binary reported (`opencode --version`)."),
  })
  .strict();
export type RunSetting = z.infer<typeof RunSettingSchema>;

/** `run.json`: the experiment's setting, and what of the suite it runs (which may grow). */
export const RunJsonSchema = z.object({
  /** The suite directory as given, for `bench score` to find it again. */
  suite: z.string(),
  setting: RunSettingSchema,
  /** The agent as chosen (a provider file's path included), to start it again. */
  agent: z.unknown(),
  modes: z.array(z.enum(MODES)),
  /** Sessions of the suite run: its first N. */
  sessions: z.number(),
  /** The conditions run, when not the suite's own two (uninterrupted, switched): `resumed` is the driver's. */
  conditions: z.array(z.enum(CONDITIONS)).optional(),
  shard: z.string().optional(),
  /** Session runs (a session in a mode) this directory is to hold: its shard's share, or all. */
  runs_planned: z.number(),
  /** Each later run that added modes or sessions, in order. */
  extended: z.array(z.object({ modes: z.array(z.enum(MODES)), sessions: z.number(), conditions: z.array(z.enum(CONDITIONS)).optional() })).optional(),
  /** Made by `bench merge`: the run directories merged. */
  parts: z.array(z.string()).optional(),
  /** Made by `bench merge --partial`: what is missing. */
  partial: z.array(z.string()).optional(),
});
export type RunJson = z.infer<typeof RunJsonSchema>;

/** What a setting made before the host was kept ran on: the bench drove OpenCode 1.18 only. */
export const UNRECORDED_HOST = "opencode-1";

/**
 * The fields of two settings that differ, each with both values as text. A setting without a
 * host ran OpenCode 1.18, and one without the host's version is not compared on it (the runs
 * before either was kept stay resumable).
 */
export function settingDifferences(made: Partial<RunSetting>, asked: RunSetting): { field: string; made: string; asked: string }[] {
  const fields = Object.keys(RunSettingSchema.shape) as (keyof RunSetting)[];
  return fields.flatMap((field) => {
    if (field === "host_version" && (made.host_version === undefined || asked.host_version === undefined)) return [];
    const before = field === "host" ? (made.host ?? UNRECORDED_HOST) : made[field];
    const now = field === "host" ? (asked.host ?? UNRECORDED_HOST) : asked[field];
    return JSON.stringify(before) === JSON.stringify(now) ? [] : [{ field, made: shown(before), asked: shown(now) }];
  });
}

const shown = (value: unknown) => (value === undefined ? "(none)" : typeof value === "string" ? value : JSON.stringify(value));

/** A run's modes grown by a rerun's: the run's first, then the new ones in the paper's order. */
export function grownModes(made: readonly Mode[], asked: readonly Mode[]): Mode[] {
  return [...made, ...MODES.filter((mode) => asked.includes(mode) && !made.includes(mode))];
}

/** A run's conditions (run.json without any ran the default ones), grown by a rerun's, in the one order. */
export function grownConditions(made: readonly Condition[] | undefined, asked: readonly Condition[]): Condition[] {
  const had = made ?? DEFAULT_CONDITIONS;
  return CONDITIONS.filter((condition) => had.includes(condition) || asked.includes(condition));
}

/** Whether run.json names its conditions: only when they are not the default, so a run without `resumed` keeps its run.json as before. */
export function isDefaultConditions(conditions: readonly Condition[]): boolean {
  return conditions.length === DEFAULT_CONDITIONS.length && DEFAULT_CONDITIONS.every((condition) => conditions.includes(condition));
}
