import { z } from "zod";

/** Longest item text kept in a record; longer texts are cut (records must stay small). */
export const MAX_ITEM_CHARS = 400;
/**
 * A constraint is the user's requirement, word for word: it is not cut at `MAX_ITEM_CHARS`.
 * This bound only stops a runaway updater (no requirement clause is this long).
 */
export const MAX_CONSTRAINT_CHARS = 4_000;

/**
 * What an updater proposes for the next record. The rules in `apply-proposal.ts` decide
 * what of it is kept: updaters (the aux model above all) are never trusted as they are.
 */
export const RecordProposalSchema = z.object({
  goal: z.string(),
  /**
   * Constraints in force. An item with `id` (c1, c2... from the previous record) keeps that
   * constraint as it was; an item without one is a new constraint. A new constraint that a
   * later message of the same batch already overrides carries that message's id in
   * `supersededBy` (and its words in `supersededWith`): it is recorded, marked overridden.
   */
  constraints: z
    .array(
      z.object({
        id: z.string().optional(),
        text: z.string().default(""),
        sources: z.array(z.string()).default([]),
        supersededBy: z.string().optional(),
        supersededWith: z.string().optional(),
      }),
    )
    .default([]),
  /** Previous constraints that a newer user message overrides, that message's id, and optionally its words. */
  superseded: z.array(z.object({ id: z.string(), by: z.string(), because: z.string().optional() })).default([]),
  /** New completed work in this batch only; earlier progress is kept by the code. */
  progress: z.array(z.object({ text: z.string(), sources: z.array(z.string()).default([]) })).default([]),
  /** Complete lists: they replace the previous ones. */
  pending: z.array(z.string()).default([]),
  /** Of `pending`, the items an edit worked on that no passing run has shown done since. */
  workedOn: z.array(z.string()).default([]),
  files: z.array(z.string()).default([]),
  uncertainties: z.array(z.string()).default([]),
});
export type RecordProposal = z.output<typeof RecordProposalSchema>;
