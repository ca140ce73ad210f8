import type { PluginInput } from "@opencode-ai/plugin";
import type { MessageWithParts } from "../core/messages.js";

/** What the plug-in reads from OpenCode about a session, behind a port so tests can supply it. */
export interface SessionSource {
  /** The parent session of a sub-agent session; undefined for a top-level session. */
  parentID(sessionID: string): Promise<string | undefined>;
  /** The whole stored history, oldest first (older than any compaction too). */
  messages(sessionID: string): Promise<MessageWithParts[]>;
  /** The newest `limit` stored messages, oldest first: a cheap read of what a turn added. */
  recentMessages(sessionID: string, limit: number): Promise<MessageWithParts[]>;
}

export function clientSessionSource(client: PluginInput["client"]): SessionSource {
  return {
    async parentID(sessionID) {
      const response = await client.session.get({ path: { id: sessionID }, throwOnError: true });
      return response.data.parentID ?? undefined;
    },
    async messages(sessionID) {
      const response = await client.session.messages({ path: { id: sessionID }, throwOnError: true });
      // The SDK's declared types are the stale v1 shapes; the runtime objects are v2.
      return response.data as unknown as MessageWithParts[];
    },
    async recentMessages(sessionID, limit) {
      const response = await client.session.messages({ path: { id: sessionID }, query: { limit }, throwOnError: true });
      return response.data as unknown as MessageWithParts[];
    },
  };
}
