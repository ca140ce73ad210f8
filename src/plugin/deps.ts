import type { Guard } from "./fail-open-guard.js";
import type { Logger } from "./logger.js";
import type { Options } from "./options.js";
import type { SessionFlags } from "./session-flags.js";

/** Everything a hook handler needs, built once by the composition root. */
export interface PluginDeps {
  options: Options;
  logger: Logger;
  guard: Guard;
  sessions: SessionFlags;
}
