import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Router } from "../../src/plugin/core/routing/router.js";
import type { Logger } from "../../src/plugin/sessions/logger.js";
import { createSessionRouting, type SessionRouting } from "../../src/plugin/sessions/session-routing.js";
import type { SessionSource } from "../../src/plugin/sessions/session-source.js";
import type { SessionSplit } from "../../src/plugin/sessions/session-split.js";
import { createLiveSessions, createSessionStore, type LiveSessions, type SessionStore } from "../../src/plugin/sessions/session-store.js";
import { createVerbDispatcher, type VerbDispatcher } from "../../src/plugin/sessions/verb-dispatcher.js";
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

/** The plug-in's session store with routing over it and the verbs that change a session, as the plug-in builds them (the default threshold). */
export function storeWithRouting(options: {
  stateDir: string;
  router: Router;
  source: SessionSource;
  logger: Logger;
  maxSessions?: number;
  onMoved?: (sessionID: string) => void;
  /** How a split is applied (session-split.ts); without it splits wait. */
  split?: (store: SessionStore) => SessionSplit;
}): { store: SessionStore; routing: SessionRouting; verbs: VerbDispatcher; sessions: LiveSessions } {
  const { stateDir, router, source, logger, maxSessions, onMoved } = options;
  const sessions = createLiveSessions(maxSessions === undefined ? {} : { max: maxSessions });
  const store = createSessionStore({ stateDir, source, logger, sessions, applyIntent: (session, intent) => verbs.apply(session, intent) });
  const routing = createSessionRouting({ store, router, source, logger, threshold: THRESHOLD, ...(onMoved ? { onMoved } : {}) });
  const verbs = createVerbDispatcher({ store, routing, split: options.split?.(store) });
  return { store, routing, verbs, sessions };
}
