import { homedir } from "node:os";
import { join } from "node:path";
import { createRcm } from "../../../handlers/rcm.js";
import type { Host } from "../../../sessions/host.js";
import { defaultStateRoot } from "../../../store/state-dir.js";
import type { PluginContext } from "./api.js";
import { generateModels } from "./generate-models.js";
import { contextModelLimits } from "./model-limits.js";
import { rcmCommands } from "./rcm-commands.js";
import { rcmTools } from "./rcm-tools.js";
import { createCompactionHook, createContextHook } from "./request-hooks.js";
import { serverLogger } from "./server-logger.js";
import { contextSessionSource } from "./session-source.js";
import { contextSplitHost } from "./split-host.js";
import { followTurns } from "./turn-events.js";

/** The log file's name in the state root (`${XDG_DATA_HOME:-~/.local/share}/opencode/rcm/`), for every project. */
const LOG_FILE = "opencode-rcm.log";

/**
 * The OpenCode 2 server part (`setup`): fills the host's ports from OpenCode 2's plug-in
 * context and maps its hooks to the plug-in's handlers (handlers/rcm.ts), which know no host.
 * The state stays in the state directory both hosts share (store/state-dir.ts), where the CLI
 * and the TUI part find it.
 */
export async function setup(ctx: PluginContext): Promise<void> {
  let debug = process.env["OPENCODE_RCM_DEBUG"] === "1";
  const logger = serverLogger({ debug: () => debug, file: join(defaultStateRoot(process.env, homedir()), LOG_FILE) });
  const source = contextSessionSource(ctx.session);
  let routes = false;
  const host: Host = {
    logger,
    project: { id: ctx.location.project.id, worktree: ctx.location.project.directory, directory: ctx.location.directory },
    source,
    split: contextSplitHost(ctx.session),
    modelLimits: contextModelLimits(ctx.model),
    models: (latest) => generateModels(ctx, latest),
    // 2.0.15 gives a server plug-in no toast: what a toast would say is in the log and in /rcm-text status.
    toast: async () => {},
    terminal: undefined,
    loaded: (plugin) => {
      debug ||= plugin.debug;
      routes = plugin.routes;
    },
  };
  const rcm = await createRcm({ host, rawOptions: ctx.options ?? {}, env: process.env, home: homedir() });
  // The ids of the answers this server posted: the context hook keeps them from the model.
  const answered = new Set<string>();
  const commands = rcmCommands({ rcm, logger, session: ctx.session, answered });
  ctx.command.transform((editor) => {
    for (const command of commands) editor.add(command);
  });
  const tools = rcmTools(rcm.tools);
  if (tools.length > 0)
    ctx.tool.transform((editor) => {
      for (const tool of tools) editor.add(tool);
    });
  ctx.session.hook("context", createContextHook({ rcm, logger, answered }));
  ctx.session.hook("compaction", createCompactionHook({ rcm, logger, answered, source }));
  if (routes) void followTurns(ctx, rcm, source, logger);
}
