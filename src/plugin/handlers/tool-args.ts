import type { z } from "zod";

/** A tool's arguments parsed with its schema: OpenCode does not validate them. Throws with every problem named. */
export function parseToolArgs<Schema extends z.ZodType>(tool: string, schema: Schema, raw: unknown): z.output<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`);
  throw new Error(`${tool}: invalid arguments: ${problems.join("; ")}`);
}
