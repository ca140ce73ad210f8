import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { Toast } from "../../src/plugin/session-views/toasts.js";
import type { Host, LoadedPlugin } from "../../src/plugin/sessions/host.js";
import type { LogLevel } from "../../src/plugin/sessions/logger.js";
import { sourceFor } from "./plugin-parts.js";

/** One line the plug-in logged through the host. */
interface LoggedLine {
  level: LogLevel;
  message: string;
  extra?: Record<string, unknown> | undefined;
}

/** A host that serves recorded sessions and records what the plug-in asked of it (the seam's other side, in tests). */
export interface FakeHost extends Host {
  source: ReturnType<typeof sourceFor>;
  lines: LoggedLine[];
  toasts: Toast[];
  /** What the plug-in reported as it started. */
  plugin: LoadedPlugin | undefined;
  /** The sessions a split opened, with what they were seeded with. */
  opened: { sessionID: string; title: string; seed?: { text: string; note: string } }[];
}

/**
 * A `Host` for a project at `directory` whose stored sessions are `sessions` (each cut as
 * `source.upTo` says, as it stood before a request). No model limits are known, the user's
 * models are never reachable (the lexical router and the extractive updater need none).
 */
export function fakeHost(options: { directory: string; sessions: Record<string, { parentID?: string; messages: MessageWithParts[] }> }): FakeHost {
  const lines: LoggedLine[] = [];
  const toasts: Toast[] = [];
  const opened: FakeHost["opened"] = [];
  const host: FakeHost = {
    plugin: undefined,
    lines,
    toasts,
    opened,
    logger: { log: async (level, message, extra) => void lines.push({ level, message, extra }) },
    project: { id: "prj_fake", worktree: options.directory, directory: options.directory },
    source: sourceFor(options.sessions),
    split: {
      describe: async (sessionID) => ({ title: `title of ${sessionID}`, directory: options.directory }),
      async create({ title }) {
        const sessionID = `ses_split${opened.length + 1}`;
        opened.push({ sessionID, title });
        return sessionID;
      },
      async seed(sessionID, message) {
        const session = opened.find((candidate) => candidate.sessionID === sessionID);
        if (session) session.seed = { text: message.text, note: message.note };
      },
      show: async () => {},
    },
    modelLimits: async () => ({ models: [] }),
    models: () => ({
      ask: () => Promise.reject(new Error("the fake host has no models")),
      smallModel: async () => undefined,
      sessionModel: async () => undefined,
    }),
    toast: async (toast) => void toasts.push(toast),
    terminal: undefined,
    loaded: (plugin) => {
      host.plugin = plugin;
    },
  };
  return host;
}
