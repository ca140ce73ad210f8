import type { MessageWithParts } from "../core/messages.js";

/** What the plug-in reads from its host about a session, behind a port so tests and other hosts can supply it. */
export interface SessionSource {
  /** The parent session of a sub-agent session; undefined for a top-level session. */
  parentID(sessionID: string): Promise<string | undefined>;
  /** The whole stored history, oldest first (older than any compaction too). */
  messages(sessionID: string): Promise<MessageWithParts[]>;
  /** The newest `limit` stored messages, oldest first: a cheap read of what a turn added. */
  recentMessages(sessionID: string, limit: number): Promise<MessageWithParts[]>;
}
