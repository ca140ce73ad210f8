import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import type { Logger } from "../../src/plugin/sessions/logger.js";
import { createSessionRouting, type SessionRouting } from "../../src/plugin/sessions/session-routing.js";
import type { SessionSource } from "../../src/plugin/sessions/session-source.js";
import { createSessionStore, type SessionStore } from "../../src/plugin/sessions/session-store.js";
import { THRESHOLD } from "./defaults.js";

/** A source that serves recorded histories, each as it stood before the request given to `upTo`. */
export function sourceFor(sessions: Record<string, { parentID?: string; messages: MessageWithParts[] }>): SessionSource & { upTo(id: string): void } {
  const cut = new Map<string, number>();
  return {
    upTo(id) {
      // An id no session has: every session's whole history again (every turn over).
      if (!Object.values(sessions).some(({ messages }) => messages.some((message) => message.info.id === id))) cut.clear();
      for (const [session, { messages }] of Object.entries(sessions)) {
        const index = messages.findIndex((message) => message.info.id === id);
        if (index >= 0) cut.set(session, index);
      }
    },
    async parentID(id) {
      return sessions[id]?.parentID;
    },
    async messages(id) {
      const messages = sessions[id]?.messages ?? [];
      return messages.slice(0, cut.get(id) ?? messages.length);
    },
    async recentMessages(id, limit) {
      return (await this.messages(id)).slice(-limit);
    },
  };
}

/** A logger that keeps `level: message` lines. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, log: async (level, message) => void lines.push(`${level}: ${message}`) };
}

/** The plug-in's session store with routing over it, as the plug-in builds them (the default threshold). */
export function storeWithRouting(options: {
  stateDir: string;
  router: Router;
  source: SessionSource;
  logger: Logger;
  maxSessions?: number;
  onMoved?: (sessionID: string) => void;
}): { store: SessionStore; routing: SessionRouting } {
  const { stateDir, router, source, logger, maxSessions, onMoved } = options;
  const store = createSessionStore({ stateDir, source, logger, ...(maxSessions === undefined ? {} : { maxSessions }) });
  return { store, routing: createSessionRouting({ store, router, source, logger, threshold: THRESHOLD, ...(onMoved ? { onMoved } : {}) }) };
}
