import { z } from "zod";

/** The id of the requirement-free last request of every session. */
export const FINALIZE = "finalize";

/** `suite.json`: what the suite is. */
export const SuiteMetaSchema = z
  .object({
    name: z.string().min(1).describe("The suite's name; reports are titled with it."),
    description: z.string().default("").describe("What the suite is, for the reader."),
  })
  .strict();

const StageSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .refine((id) => id !== FINALIZE, { message: `"${FINALIZE}" is reserved for the last request` })
      .describe(`The stage's id, unique in the task; sessions name it in their schedule. Not "${FINALIZE}".`),
    request: z.string().min(1).describe("What the user asks at this stage, as the agent is sent it (after the workspace's path)."),
  })
  .strict();

/**
 * A task (a folder under `tasks/`, or one line of a legacy `tasks.jsonl`): a SWE-bench instance plus the stages of its requirements, the
 * command that runs its tests, and where its repository comes from.
 */
export const TaskSchema = z
  .object({
    instance_id: z
      .string()
      .min(1)
      .describe("The task's id, unique in the suite (SWE-bench's instance id, e.g. owner__name-123); in a task folder, the folder's name."),
    repo: z.string().min(1).describe("The repository as owner/name; make-sessions interrupts a task only with tasks of the same repo."),
    base_commit: z
      .string()
      .regex(/^[0-9a-f]{7,40}$/, "must be a git commit id: 7 to 40 lower-case hex digits")
      .describe("The commit (7 to 40 lower-case hex digits) every workspace of the task is checked out at and the patches apply to."),
    patch: z.string().min(1).describe("The reference solution, a unified diff against base_commit (in a task folder: patch.diff)."),
    test_patch: z.string().min(1).describe("The held-out tests, a unified diff applied before scoring (in a task folder: test_patch.diff)."),
    FAIL_TO_PASS: z
      .array(z.string().min(1))
      .min(1)
      .describe("Test ids as pytest -rA prints them (path::name) that fail at base_commit and must pass for the task to be resolved; at least one."),
    PASS_TO_PASS: z.array(z.string().min(1)).describe("Test ids that pass at base_commit and must still pass for the task to be resolved."),
    version: z.string().optional().describe("SWE-bench's version of the instance; kept, not used by the driver."),
    stages: z
      .array(StageSchema)
      .min(1)
      .describe("The requests in order: the issue, then review rounds that refine it (in a task folder: stage-1.md, stage-2.md...)."),
    /** Runs the tests inside a checkout, e.g. `python -m pytest -rA tests/test_core.py`. */
    test_cmd: z
      .string()
      .min(1)
      .describe(
        "The shell command that runs the tests in a checkout, e.g. python -m pytest -rA tests/test_x.py; the driver's scoring parses pytest's -rA summary.",
      ),
    /** A URL git can clone... */
    repo_url: z.string().min(1).optional().describe("Where the repository is cloned from (anything git clone takes); exactly one of repo_url and repo_bundle."),
    /** ...or a git bundle, as a path inside the suite directory. */
    repo_bundle: z
      .string()
      .min(1)
      .optional()
      .describe("A git bundle of the repository, as a path relative to the suite directory (e.g. repos/name.bundle); exactly one of repo_url and repo_bundle."),
    /** The container image the task's sessions and scoring run in (`bench run --env docker`). */
    image: z
      .string()
      .min(1)
      .optional()
      .describe("The container image the task's sessions and scoring run in with bench run --env docker (default: SWE-bench's image for the instance)."),
  })
  .strict()
  .refine((task) => (task.repo_url === undefined) !== (task.repo_bundle === undefined), {
    message: "exactly one of repo_url and repo_bundle is required",
    path: ["repo_url"],
  });

const ScheduleEntrySchema = z
  .object({
    task: z.string().min(1).describe("The task whose request is sent: the focus or one of the interruptions."),
    stage: z.string().min(1).describe(`One of that task's stage ids, or "${FINALIZE}" (the last entry only, for the focus).`),
  })
  .strict()
  .describe("One request of the session.");

/** What a suite's sessions.jsonl lists: the focus task alone, or with other tasks' requests between its stages. */
const SUITE_CONDITIONS = ["uninterrupted", "switched"] as const;
/**
 * A session run's condition: a suite's two, and `resumed`, which the driver makes from a switched
 * session (suite/resumed-sessions.ts): the focus's first stages, the interruptions and the focus's
 * last stage each in an OpenCode session of their own, as a person coming back the next day.
 */
export const CONDITIONS = [...SUITE_CONDITIONS, "resumed"] as const;
export type Condition = (typeof CONDITIONS)[number];
/** The conditions `bench run` runs unless told: the suite's sessions as listed. */
export const DEFAULT_CONDITIONS: readonly Condition[] = [...SUITE_CONDITIONS];
/**
 * How close a switched session's interruptions are to the focus: near when the parent directory of
 * a source file an interruption's reference patch changes is one the focus's patch changes a file in
 * too, far otherwise (make-sessions; the uninterrupted twin carries the same label).
 */
export const LOCALITIES = ["near", "far"] as const;

/** One line of `sessions.jsonl`: a focus task, uninterrupted or switched, and its schedule. */
export const SessionSpecSchema = z
  .object({
    session_id: z.string().min(1).describe("The session's id, unique in the suite (make-sessions: <focus>__uninterrupted, <focus>__switched)."),
    focus: z.string().min(1).describe("The task whose final patch is scored."),
    condition: z
      .enum(SUITE_CONDITIONS)
      .describe("uninterrupted: the focus's stages alone; switched: other tasks' requests between them. A focus has at most one session of each."),
    locality: z
      .enum(LOCALITIES)
      .describe(
        "near when an interruption's reference patch changes a source file in a directory where the focus's does, far otherwise; an uninterrupted session carries its switched twin's.",
      ),
    interruptions: z
      .array(z.string().min(1))
      .describe("The other tasks scheduled in a switched session (none in an uninterrupted one); none may change a source file the focus changes."),
    schedule: z
      .array(ScheduleEntrySchema)
      .min(1)
      .describe(
        `The requests in order. The focus's entries are its stages in order, then {task: focus, stage: "${FINALIZE}"} last; a switched session's projection onto the focus equals its uninterrupted twin's schedule.`,
      ),
  })
  .strict();

export type SuiteMeta = z.infer<typeof SuiteMetaSchema>;
export type Stage = z.infer<typeof StageSchema>;
export type Task = z.infer<typeof TaskSchema>;
export type ScheduleEntry = z.infer<typeof ScheduleEntrySchema>;
/** A session as run: a suite's, or a resumed session the driver made from a switched one. */
export type SessionSpec = Omit<z.infer<typeof SessionSpecSchema>, "condition"> & { condition: Condition };

/** A loaded, validated suite. */
export interface Suite {
  dir: string;
  meta: SuiteMeta;
  tasks: Task[];
  sessions: SessionSpec[];
}
