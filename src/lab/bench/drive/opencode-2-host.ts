import { sessionOf, startOpencode2Server } from "../../harness/opencode-2-server.js";
import type { HostServer } from "./host-server.js";
import { opencode2Messages } from "./opencode-2-messages.js";

/**
 * Starts OpenCode 2 (`opencode serve` of the pinned 2.0.15) with `config` in private dirs under
 * `root`, its sessions made in `directory`. A request is `POST .../prompt` and its turn ends
 * when `POST .../wait` returns (the session's loop is idle again); `.../interrupt` stops it.
 */
export async function startOpencode2Host(options: {
  root: string;
  cwd: string;
  directory: string;
  config: Record<string, unknown>;
  env: Record<string, string>;
  /** The OpenCode 2 binary; default: the pinned package's (`opencode2Binary`). */
  binary?: string | undefined;
}): Promise<HostServer> {
  const server = await startOpencode2Server({ root: options.root, cwd: options.cwd, config: options.config, env: options.env, binary: options.binary });
  const opened = new Set<string>();
  const interrupt = (sessionID: string) => server.api("POST", `/api/session/${sessionID}/interrupt`, {});
  return {
    async createSession(title) {
      const created = await server.api<{ data: { id: string } }>("POST", "/api/session", { location: { directory: options.directory }, title });
      opened.add(created.data.id);
      return created.data.id;
    },
    async send(sessionID, text) {
      await server.api("POST", `/api/session/${sessionID}/prompt`, { text });
      await server.api("POST", `/api/experimental/session/${sessionID}/wait`, {});
    },
    async abort(sessionID) {
      await interrupt(sessionID);
    },
    async abortAll() {
      for (const sessionID of opened) await interrupt(sessionID).catch(() => undefined);
    },
    async messages(sessionID) {
      return opencode2Messages(sessionID, await sessionOf(server, sessionID).messages());
    },
    close: () => server.close(),
  };
}
