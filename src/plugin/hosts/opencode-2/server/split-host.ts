import type { SplitHost } from "../../../sessions/session-split.js";
import type { PluginContext } from "./api.js";

/**
 * `/rcm split` through OpenCode 2's `ctx.session`: the new session in the old one's directory,
 * seeded with a synthetic message (the model gets it on the first turn; no turn starts now).
 * OpenCode 2's server part cannot bring a session on screen: `show` does nothing.
 */
export function contextSplitHost(session: PluginContext["session"]): SplitHost {
  return {
    async describe(sessionID) {
      const info = await session.get({ sessionID });
      return { title: info.title || undefined, directory: info.location?.directory || undefined };
    },
    async create({ title, directory }) {
      const created = await session.create({ title, ...(directory ? { location: { directory } } : {}) });
      return created.id;
    },
    async seed(sessionID, { text, note }) {
      await session.synthetic({ sessionID, text: `${text}\n\n${note}`, description: note, resume: false });
    },
    async show() {},
  };
}
