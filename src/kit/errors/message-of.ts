/** What an error says: its message, or the thrown value as a string (the one place this is written). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The innermost cause's message ("connect ECONNREFUSED ..." rather than "fetch failed"). */
export function rootMessageOf(error: unknown): string {
  let innermost = error;
  for (let depth = 0; depth < 5 && innermost instanceof Error && innermost.cause !== undefined; depth += 1) {
    innermost = innermost.cause;
  }
  return messageOf(innermost);
}
