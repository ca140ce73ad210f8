import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { RcmError } from "../errors/rcm-error.js";

/** One labelled request: its text and the gold requirement clauses (substrings of it). */
export const LabelledRequestSchema = z
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
    ? (await readdir(path)).filter((name) => name.endsWith(".jsonl")).sort().map((name) => join(path, name))
    : [path];
  const out: LabelledRequest[] = [];
  for (const file of files) {
    const lines = (await readFile(file, "utf8")).split("\n");
    lines.forEach((line, index) => {
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new RcmError("requirement-set", `${file}:${index + 1}: not JSON (${error instanceof Error ? error.message : String(error)})`);
      }
      const parsed = LabelledRequestSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new RcmError("requirement-set", `${file}:${index + 1}: ${issue?.path.join(".") || "(line)"}: ${issue?.message ?? "invalid"}`);
      }
      out.push({ ...parsed.data, file });
    });
  }
  return out;
}
