import { z } from "zod";
import { noteSessionTitle } from "../../../store/session-titles.js";

/** The part of `session.created` / `session.updated` read here; any other event is ignored. */
const SessionInfoEventSchema = z.object({
  type: z.enum(["session.created", "session.updated"]),
  properties: z.object({ info: z.object({ id: z.string().min(1), title: z.string(), parentID: z.string().optional() }) }),
});

/** Forgotten past this many sessions: the file still has them, a repeat costs one read. */
const REMEMBERED = 1000;

/**
 * Notes each session's title as OpenCode announces it, for the CLI (titles.json). OpenCode sends
 * session.updated at every message; the file is touched only when a title changes.
 */
export function createTitleRecorder(stateDir: string): { observe(event: unknown): Promise<void> } {
  const noted = new Map<string, string>();
  return {
    async observe(event) {
      // Every event of the server comes here (a streamed answer sends many): a failed zod parse
      // costs about 0.1 ms, so the type is looked at first.
      if (!isSessionInfoEvent(event)) return;
      const parsed = SessionInfoEventSchema.safeParse(event);
      // Sub-agent sessions have no state of their own: the CLI never names them.
      if (!parsed.success || parsed.data.properties.info.parentID) return;
      const { id, title } = parsed.data.properties.info;
      if (noted.get(id) === title) return;
      await noteSessionTitle(stateDir, { sessionID: id, title, at: new Date() });
      if (noted.size >= REMEMBERED) noted.clear();
      noted.set(id, title);
    },
  };
}

function isSessionInfoEvent(event: unknown): boolean {
  const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
  return type === "session.created" || type === "session.updated";
}
