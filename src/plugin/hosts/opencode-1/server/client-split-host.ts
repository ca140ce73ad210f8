import type { PluginInput } from "@opencode-ai/plugin";
import type { SplitHost } from "../../../sessions/session-split.js";

type PublishBody = NonNullable<NonNullable<Parameters<PluginInput["client"]["tui"]["publish"]>[0]>["body"]>;

/** The host through OpenCode's client: the new session in the old one's directory, the TUI told to show it. */
export function clientSplitHost(client: PluginInput["client"]): SplitHost {
  return {
    async describe(sessionID) {
      const { data } = await client.session.get({ path: { id: sessionID }, throwOnError: true });
      return { title: data.title || undefined, directory: data.directory || undefined };
    },
    async create({ title, directory }) {
      const { data } = await client.session.create({ body: { title }, ...(directory ? { query: { directory } } : {}), throwOnError: true });
      return data.id;
    },
    async seed(sessionID, { text, note, model, agent }) {
      const settings = { ...(model ? { model } : {}), ...(agent ? { agent } : {}) };
      await client.session.prompt({
        path: { id: sessionID },
        body: {
          noReply: true,
          ...settings,
          parts: [
            { type: "text", text, synthetic: true },
            { type: "text", text: note, ignored: true },
          ],
        },
        throwOnError: true,
      });
    },
    async show(sessionID) {
      // The v1 client's types predate this event; OpenCode 1.18.33's TUI navigates on it.
      const body = { type: "tui.session.select", properties: { sessionID } } as unknown as PublishBody;
      await client.tui.publish({ body, throwOnError: true });
    },
  };
}
