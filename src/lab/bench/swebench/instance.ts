import { z } from "zod";

/**
 * A SWE-bench instance as published (princeton-nlp/SWE-bench and its variants). Unknown
 * fields (hints_text, created_at, difficulty...) are allowed and ignored. FAIL_TO_PASS and
 * PASS_TO_PASS are JSON-encoded strings on Hugging Face and lists in many local dumps: both
 * are read.
 */
const TestList = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.array(z.string().min(1), { message: "must be a list of test ids (or a JSON string of one)" }),
);

export const SwebenchInstanceSchema = z
  .object({
    instance_id: z.string().min(1),
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name"),
    base_commit: z.string().regex(/^[0-9a-f]{7,40}$/, "must be a git commit id: 7 to 40 lower-case hex digits"),
    patch: z.string().min(1),
    test_patch: z.string().min(1),
    problem_statement: z.string().min(1),
    FAIL_TO_PASS: TestList,
    PASS_TO_PASS: TestList,
    version: z.union([z.string(), z.number()]).transform(String).optional(),
    environment_setup_commit: z.string().optional(),
  })
  .passthrough();

/** A line of the optional stages file: the requests an instance is split into, in order. */
export const StagesLineSchema = z
  .object({
    instance_id: z.string().min(1),
    stages: z.array(z.object({ id: z.string().min(1), request: z.string().min(1) }).strict()).min(1),
  })
  .strict();
export type StagesLine = z.infer<typeof StagesLineSchema>;
