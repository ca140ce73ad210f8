/** The requirement-free last request of a session (the paper's finalization). */
export const FINALIZE_REQUEST = "Complete the work on this task and submit it.";

/**
 * What the agent is sent for one schedule entry: the request prefixed with the absolute path
 * of the workspace it concerns, as Switch-SWE does (paths are role-neutral: ws1..ws5).
 */
export function requestText(workspace: string, request: string): string {
  return `${workspace}: ${request}`;
}

/** Splits a request back into its workspace and text; undefined when it has no workspace prefix. */
export function parseRequestText(text: string): { workspace: string; request: string } | undefined {
  const match = /^(\/[^\s:]+): ([\s\S]*)$/.exec(text.trim());
  return match ? { workspace: match[1] as string, request: (match[2] as string).trim() } : undefined;
}
