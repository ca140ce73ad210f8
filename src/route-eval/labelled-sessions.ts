import { readFile } from "node:fs/promises";
import { z } from "zod";

/** The gold label of a request meant for every task ("from now on run the tests with -q"). */
export const SHARED_LABEL = "*";

export const LabelledRequestSchema = z
  .object({
    text: z.string().trim().min(1, "must be non-empty text"),
    /** Gold label; `*` for a shared instruction. */
    task: z.string().trim().min(1, "must be a non-empty label"),
    /** Paths the request's work touched: learned after the decision, as tool calls would be. */
    files: z.array(z.string().min(1)).optional(),
    /** Directory the request's work ran in. */
    workspace: z.string().min(1).optional(),
  })
  .strict();

export const LabelledSessionSchema = z
  .object({
    id: z.string().min(1),
    description: z.string().optional(),
    requests: z.array(LabelledRequestSchema).min(1, "must list at least one request"),
  })
  .strict();

export type LabelledRequest = z.infer<typeof LabelledRequestSchema>;
export type LabelledSession = z.infer<typeof LabelledSessionSchema>;

/** Bad input, naming the file, the line and the field. */
export class LabelledSessionsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}:${line}: ${field}: ${problem}`);
    this.name = "LabelledSessionsError";
  }
}

/** Parses a JSONL file of labelled sessions (one per line; blank lines skipped). */
export function parseLabelledSessions(file: string, text: string): LabelledSession[] {
  const sessions: LabelledSession[] = [];
  const ids = new Set<string>();
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new LabelledSessionsError(file, line, "(line)", `not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = LabelledSessionSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? issue.path.map(String).join(".") : "(session)";
      throw new LabelledSessionsError(file, line, field, issue?.message ?? "invalid");
    }
    if (ids.has(parsed.data.id)) throw new LabelledSessionsError(file, line, "id", `duplicate session id "${parsed.data.id}"`);
    ids.add(parsed.data.id);
    sessions.push(parsed.data);
  });
  if (sessions.length === 0) throw new LabelledSessionsError(file, 1, "(file)", "no sessions");
  return sessions;
}

export async function readLabelledSessions(file: string): Promise<LabelledSession[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new LabelledSessionsError(file, 0, "(file)", `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseLabelledSessions(file, text);
}
