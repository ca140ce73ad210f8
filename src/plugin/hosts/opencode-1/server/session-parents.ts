/** Forgotten past this many sessions: a session not remembered costs one read of it. */
const REMEMBERED = 1000;

/**
 * Each session's parent as OpenCode announces it (`session.created`, `session.updated`), so the
 * plug-in learns whether a session is a sub-agent's without asking the server at its first
 * request (each question is a request the server serves). Unknown: undefined, and the caller asks.
 */
export function createSessionParents(): {
  observe(event: unknown): void;
  /** The parent's id, null for a top-level session, undefined when not announced. */
  known(sessionID: string): string | null | undefined;
} {
  const parents = new Map<string, string | null>();
  return {
    observe(event) {
      const info = sessionInfo(event);
      if (info === undefined) return;
      if (parents.size >= REMEMBERED && !parents.has(info.id)) parents.clear();
      parents.set(info.id, info.parentID ?? null);
    },
    known: (sessionID) => parents.get(sessionID),
  };
}

/** The announced session's id and parent, from a `session.created` or `session.updated` event. */
function sessionInfo(event: unknown): { id: string; parentID: string | undefined } | undefined {
  if (typeof event !== "object" || event === null) return undefined;
  const { type, properties } = event as { type?: unknown; properties?: { info?: { id?: unknown; parentID?: unknown } } };
  if (type !== "session.created" && type !== "session.updated") return undefined;
  const id = properties?.info?.id;
  const parentID = properties?.info?.parentID;
  if (typeof id !== "string" || id === "") return undefined;
  return { id, parentID: typeof parentID === "string" && parentID !== "" ? parentID : undefined };
}
