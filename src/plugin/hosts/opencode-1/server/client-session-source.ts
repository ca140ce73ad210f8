import type { PluginInput } from "@opencode-ai/plugin";
import type { MessageWithParts } from "../../../core/messages.js";
import type { SessionSource } from "../../../sessions/session-source.js";

/** The sessions as OpenCode's client reads them; a parent OpenCode announced (`known`) is not read again. */
export function clientSessionSource(client: PluginInput["client"], known: (sessionID: string) => string | null | undefined = () => undefined): SessionSource {
  return {
    async parentID(sessionID) {
      const announced = known(sessionID);
      if (announced !== undefined) return announced ?? undefined;
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
