import type { OpencodeModelRef, OpencodeModels } from "../auxiliary/opencode-client.js";
import type { Toast } from "../session-views/toasts.js";
import type { Logger } from "./logger.js";
import type { ModelLimitsRead } from "./model-thresholds.js";
import type { SessionSource } from "./session-source.js";
import type { SplitHost } from "./session-split.js";

/**
 * What the plug-in needs from the program it runs in: the seam. A host adapter (one folder in
 * src/plugin/hosts, see its README.md) fills these ports and calls the handlers of
 * handlers/rcm.ts at its events; nothing below it knows which host it is.
 */
export interface Host {
  /** The host's log. */
  logger: Logger;
  /** The project the host runs in: its id names the plug-in's state directory. */
  project: { id: string; worktree: string; directory: string };
  /** The stored sessions and their messages. */
  source: SessionSource;
  /** Opening, seeding and showing a session, for /rcm split. */
  split: SplitHost;
  /** The host's models with their limits, for the compaction thresholds the memory stays under. */
  modelLimits(): Promise<ModelLimitsRead>;
  /** The user's own models through the host (the aux model's `opencode` source); `latest` gives a session's latest model. */
  models(latest: (sessionID: string) => OpencodeModelRef | undefined): OpencodeModels;
  /** Called once, as the plug-in starts: what the host's own parts need of its options. */
  loaded(plugin: LoadedPlugin): void;
  /** A short notice on screen; never throws (a host without a screen drops it). */
  toast(toast: Toast, durationMs?: number): Promise<void>;
  /** Where start-up problems are printed too when no screen shows toasts (a plain terminal); undefined in a TUI. */
  terminal?: ((text: string) => void) | undefined;
}

/** What a host learns of the plug-in as it starts (`Host.loaded`). */
export interface LoadedPlugin {
  /** The project's state directory (store/state-dir.ts), where the TUI part and the CLI meet the server part. */
  stateDir: string;
  /** Whether requests are routed (modes router, memory, full): the sessions have state. */
  routes: boolean;
  /** Whether the aux model asks the user's own models through the host (the host then offers its hidden agent). */
  usesHostModels: boolean;
  /** The `debug` option. */
  debug: boolean;
}
