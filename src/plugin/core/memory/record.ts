import { z } from "zod";
import { AuxUsageSchema } from "../routing/decision.js";

/** Version of the record's shape; bump it when the persisted shape changes. */
export const RECORD_VERSION = 1;

/** A requirement from the user, with the user messages it came from. */
const ConstraintSchema = z.object({
  /** Stable within the record: `c1`, `c2`... in the order constraints were added. */
  id: z.string().regex(/^c\d+$/),
  text: z.string().min(1),
  /** User message ids of the task. */
  sources: z.array(z.string().min(1)).min(1),
  /**
   * The newer user message that overrides this constraint. An overridden constraint stays in
   * the record, shown as overridden, so the model does not apply the earlier request it came
   * from (that request is still in the history, verbatim).
   */
  supersededBy: z.string().min(1).optional(),
  /** What that newer message said, as the record shows it; records written before it have none. */
  supersededWith: z.string().min(1).optional(),
});
export type Constraint = z.infer<typeof ConstraintSchema>;

/** Completed work, with the tool calls (or messages) that show it. */
const ProgressItemSchema = z.object({
  text: z.string().min(1),
  sources: z.array(z.string().min(1)).min(1),
});
export type ProgressItem = z.infer<typeof ProgressItemSchema>;

/** Which interaction groups the record accounts for: exactly these, in session order. */
const CoverageSchema = z.object({
  /** The last group the record accounts for (the coverage mark). */
  through: z.string().min(1),
  groups: z.array(z.string().min(1)).min(1),
});

/** Usage of the update that produced a record; aux fields are zero for the extractive updater. */
const RecordUpdateSchema = z.object({
  updater: z.enum(["model", "extractive"]),
  /** Groups folded in by this update. */
  groups: z.number().int().min(0),
  aux: AuxUsageSchema.optional(),
  /** What the rules changed in the updater's proposal (dropped sources, restored constraints...). */
  notes: z.array(z.string()),
});

/** One task's memory: the six fields, their sources, and the coverage mark. */
export const TaskRecordSchema = z.object({
  version: z.literal(RECORD_VERSION),
  task: z.string().min(1),
  goal: z.string(),
  constraints: z.array(ConstraintSchema),
  progress: z.array(ProgressItemSchema),
  /** What no tool result has shown done yet (worked on or not): complete, in the order asked. */
  pending: z.array(z.string()),
  /**
   * Of `pending`, what a completed edit worked on that no passing test run has shown done since:
   * an edit alone is not "done". Records written before it have none.
   */
  workedOn: z.array(z.string()).optional(),
  files: z.array(z.string()),
  uncertainties: z.array(z.string()),
  coverage: CoverageSchema,
  lastUpdate: RecordUpdateSchema,
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

// Coverage lists grow with a task; a set keeps per-call checks O(1). Records are immutable.
const coverageSets = new WeakMap<TaskRecord, ReadonlySet<string>>();

/** True if the record accounts for the group with this id. */
export function covers(record: TaskRecord | undefined, groupID: string): boolean {
  if (record === undefined) return false;
  let set = coverageSets.get(record);
  if (!set) {
    set = new Set(record.coverage.groups);
    coverageSets.set(record, set);
  }
  return set.has(groupID);
}

/** The constraints that are still in force. */
export function activeConstraints(record: TaskRecord): Constraint[] {
  return record.constraints.filter((constraint) => constraint.supersededBy === undefined);
}

/** The constraints a newer request of the task overrides, oldest first. */
export function overriddenConstraints(record: TaskRecord): Constraint[] {
  return record.constraints.filter((constraint) => constraint.supersededBy !== undefined);
}
