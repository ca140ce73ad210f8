import { homedir } from "node:os";
import type { Hooks, Plugin, PluginModule } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import { packageRoot } from "../../../../kit/package-root.js";
import type { Message, Part } from "../../../core/messages.js";
import { createRcm } from "../../../handlers/rcm.js";
import { RCM_COMMAND, RCM_COMMAND_CONFIG, RCM_TYPED_COMMAND, RCM_TYPED_COMMAND_CONFIG } from "../../../handlers/rcm-command.js";
import { RECALL_TOOL } from "../../../handlers/recall-answer.js";
import { TASKS_TOOL } from "../../../handlers/tasks-answer.js";
import type { Host, LoadedPlugin } from "../../../sessions/host.js";
import { INTENT_TOAST_TITLE } from "../../../store/session-inbox.js";
import { createLogger } from "./client-logger.js";
import { clientModelLimits } from "./client-model-limits.js";
import { clientSessionSource } from "./client-session-source.js";
import { clientSplitHost } from "./client-split-host.js";
import { createCommandHook } from "./command-hook.js";
import { asMessages } from "./message-fit.js";
import { createToaster, plainTerminal } from "./notifier.js";
import { AUX_AGENT, AUX_AGENT_CONFIG, clientModels } from "./opencode-models.js";
import { createRecallTool } from "./recall-tool.js";
import { createSessionParents } from "./session-parents.js";
import { createTasksTool } from "./tasks-tool.js";
import { createTitleRecorder } from "./title-recorder.js";
import { createTuiPartCheck, ourPluginEntry } from "./tui-part-check.js";

// The OpenCode 1.18 server part: fills the host's ports from OpenCode's client and maps
// OpenCode's hooks to the plug-in's handlers (handlers/rcm.ts), which know no host.
const server: Plugin = async (input, rawOptions) => {
  const logger = createLogger(input.client);
  const toast = createToaster(input.client, logger);
  const parents = createSessionParents();
  let loaded: LoadedPlugin | undefined;
  const host: Host = {
    logger,
    project: { id: input.project.id, worktree: input.worktree, directory: input.directory },
    source: clientSessionSource(input.client, parents.known),
    split: clientSplitHost(input.client),
    modelLimits: clientModelLimits(input.client),
    models: (latest) => clientModels(input.client, latest),
    toast,
    terminal: plainTerminal(process.argv),
    loaded: (plugin) => {
      loaded = plugin;
    },
  };
  const rcm = await createRcm({ host, rawOptions, env: process.env, home: homedir() });
  if (!loaded) throw new Error("the plug-in started without reporting its state directory");
  const { routes, stateDir, usesHostModels } = loaded;
  // The sessions' titles, for the CLI's answers.
  const titles = routes ? createTitleRecorder(stateDir) : undefined;

  // In a TUI (the server part runs in its worker, same process, no subcommand): the TUI part announces itself; if it never did, say why there is no panel.
  const checkTuiPart =
    routes && host.terminal === undefined
      ? createTuiPartCheck({
          stateDir,
          pid: process.pid,
          entry: async () => ourPluginEntry((await input.client.config.get()).data?.plugin, packageRoot()),
          toast,
          log: (message) => logger.log("warn", message),
        })
      : undefined;

  const hooks: Hooks = {
    config: async (config) => {
      // The hidden agent that answers the plug-in's own calls to the user's models.
      if (usesHostModels) config.agent = { ...config.agent, [AUX_AGENT]: { ...AUX_AGENT_CONFIG, permission: { ...AUX_AGENT_CONFIG.permission } } };
      config.command = { ...config.command, [RCM_COMMAND]: { ...RCM_COMMAND_CONFIG }, [RCM_TYPED_COMMAND]: { ...RCM_TYPED_COMMAND_CONFIG } };
    },
    "command.execute.before": createCommandHook({ rcm, logger, client: input.client, stateDir }),
    "chat.message": async (hookInput, output) => {
      // The plug-in's own aux calls set no session's model or agent.
      const ours = hookInput.agent !== AUX_AGENT;
      const model = hookInput.model ?? output.message.model;
      await rcm.request({
        sessionID: hookInput.sessionID,
        messageID: output.message.id,
        // The hook's declared types are the stale v1 shapes; the runtime objects are v2.
        parts: output.parts as unknown as Part[],
        model: ours ? model : undefined,
        agent: ours ? hookInput.agent : undefined,
        moveCommand: checkTuiPart ? "/rcm move" : "/rcm-text move",
      });
    },
    "experimental.chat.messages.transform": async (_hookInput, output) => {
      await rcm.modelCall(asMessages(output));
    },
    "experimental.session.compacting": async (hookInput, output) => {
      const text = await rcm.compacting(hookInput.sessionID);
      if (text !== undefined) output.context.push(text);
    },
    event: async ({ event }) => {
      // The handlers log their own failures; what the host does here must not fail OpenCode's event loop either.
      try {
        parents.observe(event);
        await titles?.observe(event);
        if (event.type === "session.deleted") return rcm.sessionDeleted(event.properties.info.id);
        // The TUI's /rcm move, off and on announce themselves with a toast: apply them now, not at the next request.
        if (event.type === "tui.toast.show" && event.properties.title === INTENT_TOAST_TITLE) return rcm.intentsAnnounced();
        // The hook's declared types are the stale v1 shapes; the runtime objects are v2.
        if (event.type === "message.updated") return rcm.stepUpdated(event.properties.info as unknown as Message);
        if (event.type !== "session.idle") return;
        // After the first turn, with the TUI showing its session (a toast sent as it switches from the home screen is lost).
        if (checkTuiPart) void checkTuiPart().catch((error: unknown) => logger.log("warn", `TUI part check: ${messageOf(error)}`));
        await rcm.turnEnded(event.properties.sessionID);
      } catch (error) {
        await logger.log("warn", `${event.type}: ${messageOf(error)}`);
      }
    },
  };
  const { tasks, recall } = rcm.tools;
  if (tasks) hooks.tool = { [TASKS_TOOL]: createTasksTool(tasks) };
  if (recall) hooks.tool = { ...hooks.tool, [RECALL_TOOL]: createRecallTool(recall) };
  return hooks;
};

const plugin: PluginModule & { id: string } = { id: "opencode-rcm", server };
export default plugin;
