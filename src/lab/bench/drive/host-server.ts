import type { MessageWithParts } from "../../../plugin/core/messages.js";
import type { OpencodeServer } from "../../harness/opencode-server.js";

/**
 * What the driver needs of a running OpenCode, whichever version: OpenCode 1.18 through its SDK
 * client (`opencode1Host`), OpenCode 2 through its `/api` (`opencode-2-host.ts`).
 */
export interface HostServer {
  /** A new session in the run's sessions folder, titled up front (no title call to the model). */
  createSession(title: string): Promise<string>;
  /** Sends a request and resolves once its turn has ended; rejects when the host refused it. */
  send(sessionID: string, text: string): Promise<void>;
  /** Stops the session's turn. */
  abort(sessionID: string): Promise<void>;
  /** Stops every turn this server runs (an interrupted run). */
  abortAll(): Promise<void>;
  /** The stored history, as the metrics read it (OpenCode 1.18's messages with parts). */
  messages(sessionID: string): Promise<MessageWithParts[]>;
  /** Stops the server, when this host started it. */
  close(): Promise<void>;
}

/** OpenCode 1.18's server, its sessions made in `directory`; `close` stops the server only when `owned`. */
export function opencode1Host(server: OpencodeServer, directory: string, options: { owned: boolean }): HostServer {
  const client = server.client(directory);
  return {
    async createSession(title) {
      return (await client.session.create({ title }, { throwOnError: true })).data.id;
    },
    async send(sessionID, text) {
      await client.session.prompt({ sessionID, parts: [{ type: "text", text }] }, { throwOnError: true });
    },
    async abort(sessionID) {
      await client.session.abort({ sessionID });
    },
    async abortAll() {
      const sessions = await client.session.list().catch(() => undefined);
      for (const session of sessions?.data ?? []) await client.session.abort({ sessionID: session.id }).catch(() => undefined);
    },
    async messages(sessionID) {
      return (await client.session.messages({ sessionID }, { throwOnError: true })).data as MessageWithParts[];
    },
    close: () => (options.owned ? server.close() : Promise.resolve()),
  };
}
