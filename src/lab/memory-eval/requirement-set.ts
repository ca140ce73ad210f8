import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { atLine, firstIssue, readJsonl } from "../jsonl/read-jsonl.js";

/** One labelled request: its text and the gold requirement clauses (substrings of it). */
const LabelledRequestSchema = z
  .object({
    id: z.string().min(1),
    source: z.string().min(1),
    text: z.string(),
    requirements: z.array(z.string().min(1)),
    note: z.string().optional(),
  })
  .strict()
  .refine((request) => request.requirements.every((clause) => request.text.includes(clause)), {
    path: ["requirements"],
    message: "every requirement must be a substring of text",
  });
export type LabelledRequest = z.infer<typeof LabelledRequestSchema> & { file: string };

/** Reads `.jsonl` files, or every `.jsonl` file of a directory; a bad line names its file, line and field. */
export async function readRequirementSet(path: string): Promise<LabelledRequest[]> {
  const info = await stat(path).catch(() => {
    throw new RcmError("requirement-set", `${path}: no such file or directory`);
  });
  const files = info.isDirectory()
    ? (await readdir(path))
        .filter((name) => name.endsWith(".jsonl"))
        .sort()
        .map((name) => join(path, name))
    : [path];
  const out: LabelledRequest[] = [];
  for (const file of files) {
    for (const entry of await readJsonl(file)) {
      if (!entry.ok) throw new RcmError("requirement-set", atLine(file, entry.line, `not JSON (${entry.reason})`));
      const parsed = LabelledRequestSchema.safeParse(entry.value);
      if (!parsed.success) throw new RcmError("requirement-set", atLine(file, entry.line, firstIssue(parsed.error)));
      out.push({ ...parsed.data, file });
    }
  }
  return out;
}
