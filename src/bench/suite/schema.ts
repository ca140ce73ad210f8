import { z } from "zod";

/** The id of the requirement-free last request of every session. */
export const FINALIZE = "finalize";

/** `suite.json`: what the suite is. */
export const SuiteMetaSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(""),
  })
  .strict();

export const StageSchema = z
  .object({
    id: z.string().min(1).refine((id) => id !== FINALIZE, { message: `"${FINALIZE}" is reserved for the last request` }),
    request: z.string().min(1),
  })
  .strict();

/**
 * A task (a folder under `tasks/`, or one line of a legacy `tasks.jsonl`): a SWE-bench instance plus the stages of its requirements, the
 * command that runs its tests, and where its repository comes from.
 */
export const TaskSchema = z
  .object({
    instance_id: z.string().min(1),
    repo: z.string().min(1),
    base_commit: z.string().regex(/^[0-9a-f]{7,40}$/, "must be a git commit id"),
    patch: z.string().min(1),
    test_patch: z.string().min(1),
    FAIL_TO_PASS: z.array(z.string().min(1)).min(1),
    PASS_TO_PASS: z.array(z.string().min(1)),
    version: z.string().optional(),
    stages: z.array(StageSchema).min(1),
    /** Runs the tests inside a checkout, e.g. `python -m pytest -rA tests/test_core.py`. */
    test_cmd: z.string().min(1),
    /** A URL git can clone... */
    repo_url: z.string().min(1).optional(),
    /** ...or a git bundle, as a path inside the suite directory. */
    repo_bundle: z.string().min(1).optional(),
    /** The container image the task's sessions and scoring run in (`bench run --env docker`). */
    image: z.string().min(1).optional(),
  })
  .strict()
  .refine((task) => (task.repo_url === undefined) !== (task.repo_bundle === undefined), {
    message: "exactly one of repo_url and repo_bundle is required",
    path: ["repo_url"],
  });

export const ScheduleEntrySchema = z.object({ task: z.string().min(1), stage: z.string().min(1) }).strict();

/** A session's condition: the focus task alone, or with other tasks' requests between its stages. */
export const CONDITIONS = ["uninterrupted", "switched"] as const;
export type Condition = (typeof CONDITIONS)[number];
/** Where a switched session's interruptions come from: the focus task's repository, or others. */
export const LOCALITIES = ["near", "far"] as const;

/** One line of `sessions.jsonl`: a focus task, uninterrupted or switched, and its schedule. */
export const SessionSpecSchema = z
  .object({
    session_id: z.string().min(1),
    focus: z.string().min(1),
    condition: z.enum(CONDITIONS),
    locality: z.enum(LOCALITIES),
    interruptions: z.array(z.string().min(1)),
    schedule: z.array(ScheduleEntrySchema).min(1),
  })
  .strict();

export type SuiteMeta = z.infer<typeof SuiteMetaSchema>;
export type Stage = z.infer<typeof StageSchema>;
export type Task = z.infer<typeof TaskSchema>;
export type ScheduleEntry = z.infer<typeof ScheduleEntrySchema>;
export type SessionSpec = z.infer<typeof SessionSpecSchema>;

/** A loaded, validated suite. */
export interface Suite {
  dir: string;
  meta: SuiteMeta;
  tasks: Task[];
  sessions: SessionSpec[];
}
