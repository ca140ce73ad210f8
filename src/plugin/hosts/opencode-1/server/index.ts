import { homedir } from "node:os";
import type { Hooks, Plugin, PluginModule } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import { packageRoot } from "../../../../kit/package-root.js";
import { createAux, createMemoryUpdater, createRouter } from "../../../auxiliary/create-aux-users.js";
import type { OpencodeModelRef } from "../../../auxiliary/opencode-client.js";
import { loadOptions } from "../../../config/load-options.js";
import { modeParts } from "../../../config/modes.js";
import { auxSourceOf } from "../../../config/options-schema.js";
import { userRequestText } from "../../../core/interaction-groups.js";
import { compactionInstructions } from "../../../core/memory/compaction-instructions.js";
import type { Message, Part } from "../../../core/messages.js";
import type { PluginDeps } from "../../../handlers/deps.js";
import { RCM_COMMAND, RCM_COMMAND_CONFIG, RCM_TYPED_COMMAND, RCM_TYPED_COMMAND_CONFIG } from "../../../handlers/rcm-command.js";
import { recallToolGated } from "../../../handlers/recall-tool-gate.js";
import { tasksToolGated } from "../../../handlers/tasks-tool-gate.js";
import { createToolGate } from "../../../handlers/tool-gate.js";
import { createTransformHandler, type TransformOutput } from "../../../handlers/transform-handler.js";
import { createCallBudgets } from "../../../sessions/call-budgets.js";
import { createFailOpenGuard } from "../../../sessions/fail-open-guard.js";
import { createLogger } from "../../../sessions/logger.js";
import { modelThresholds } from "../../../sessions/model-thresholds.js";
import { createSessionFlags } from "../../../sessions/session-flags.js";
import { COMPACTION_UPDATE_WAIT_MS, createSessionMemory } from "../../../sessions/session-memory.js";
import { createSessionRouting } from "../../../sessions/session-routing.js";
import { clientSessionSource } from "../../../sessions/session-source.js";
import { clientSplitHost, createSessionSplit } from "../../../sessions/session-split.js";
import { createSessionStore } from "../../../sessions/session-store.js";
import { createTitleRecorder } from "../../../sessions/title-recorder.js";
import { noteProject } from "../../../store/project-file.js";
import { INTENT_TOAST_TITLE } from "../../../store/session-inbox.js";
import { resolveStateDir } from "../../../store/state-dir.js";
import { createCommandHook } from "./command-hook.js";
import { announceProblems, createToaster, plainTerminal, routingToast } from "./notifier.js";
import { AUX_AGENT, AUX_AGENT_CONFIG, clientModels } from "./opencode-models.js";
import { createRecallTool, RECALL_TOOL } from "./recall-tool.js";
import { createTasksTool, TASKS_TOOL } from "./tasks-tool.js";
import { createTuiPartCheck, ourPluginEntry } from "./tui-part-check.js";

// The composition root: builds config, logger and state once and maps hooks to handlers.
const server: Plugin = async (input, rawOptions) => {
  const logger = createLogger(input.client);
  const { options, problems, files } = await loadOptions({
    tuple: rawOptions,
    directory: input.directory,
    worktree: input.worktree,
    env: process.env,
    home: homedir(),
  });
  const toast = createToaster(input.client, logger, options.notify === "toast");
  await announceProblems(problems, input.client, logger, plainTerminal(process.argv));
  const { routes, narrows, remembers } = modeParts(options.mode);
  const guard = createFailOpenGuard(logger);
  const source = clientSessionSource(input.client);
  // The model of each session's latest request: the OpenCode aux source's last resort.
  const sessionModels = new Map<string, OpencodeModelRef>();
  // ...and its agent: the /rcm answer is stored with both, so the session keeps its settings.
  const sessionAgents = new Map<string, string>();
  const aux = routes ? createAux(options, process.env, clientModels(input.client, sessionModels)) : undefined;
  const usesOpencodeModels = aux !== undefined && auxSourceOf(options.aux) === "opencode";
  const stateDir = resolveStateDir({ stateDir: options.stateDir, projectID: input.project.id, env: process.env, home: homedir() });
  // So the CLI finds this project's sessions from a folder in it.
  const settings = { mode: options.mode, router: options.router, confidenceThreshold: options.confidenceThreshold };
  if (routes)
    await noteProject(stateDir, { projectID: input.project.id, worktree: input.worktree, directory: input.directory, settings }).catch((error: unknown) =>
      logger.log("warn", `could not note the project in ${stateDir}: ${messageOf(error)}`),
    );
  // Routing and memory are peers over one store of the sessions' state.
  const store = routes ? createSessionStore({ stateDir, source, logger }) : undefined;
  // The sessions' titles, for the CLI's answers.
  const titles = routes ? createTitleRecorder(stateDir) : undefined;
  // After a move the records of the tasks involved are written again (memory is made just below).
  const onMoved = (sessionID: string): void => memory?.scheduleUpdate(sessionID);
  const routing = store
    ? createSessionRouting({ store, router: createRouter(options, aux), source, logger, threshold: options.confidenceThreshold, onMoved })
    : undefined;
  // `/rcm split`: a task goes on in a new session; the TUI's and the CLI's splits are applied here too.
  const split = store
    ? createSessionSplit({ store, source, host: clientSplitHost(input.client), logger, recordTokens: options.memory.recordTokens })
    : undefined;
  const memoryUpdater = remembers ? createMemoryUpdater(options, aux) : undefined;
  const memory =
    store && memoryUpdater
      ? createSessionMemory({
          store,
          source,
          updater: memoryUpdater,
          logger,
          guard,
          threshold: options.confidenceThreshold,
          replaceBatchTokens: options.memory.replaceBatchTokens,
        })
      : undefined;
  // Read from OpenCode itself: the memory never pushes a call over the window OpenCode compacts at.
  const budgets = memory ? createCallBudgets(modelThresholds(input.client)) : undefined;
  const deps: PluginDeps = { options, logger, guard, sessions: createSessionFlags(), store, routing, split, memory, budgets };
  await logger.log(
    "info",
    `loaded in ${options.mode} mode${routes ? ` with the ${options.router} router` : ""}${memoryUpdater ? ` and the ${memoryUpdater.name} memory updater` : ""}`,
    {
      directory: input.directory,
      configFiles: files,
    },
  );

  // In a TUI (the server part runs in its worker, same process, no subcommand): the TUI part announces itself; if it never did, say why there is no panel.
  const checkTuiPart =
    routes && plainTerminal(process.argv) === undefined
      ? createTuiPartCheck({
          stateDir,
          pid: process.pid,
          entry: async () => ourPluginEntry((await input.client.config.get()).data?.plugin, packageRoot()),
          toast: (shown, duration) => createToaster(input.client, logger, true)(shown, duration),
          log: (message) => logger.log("warn", message),
        })
      : undefined;

  const transform = createTransformHandler(deps);
  // rcm_tasks only with memory: records are what it shows (a tool changes what the model is offered).
  const offersTasksTool = store !== undefined && memory !== undefined;
  // Only where routing hides other tasks' history (router, full): what was hidden, on the model's request.
  const offersRecallTool = routing !== undefined && narrows;
  // rcm_tasks only once a compaction is in view, in both modes: before it, memory keeps every task's
  // history in view and full hides only what rcm_recall fetches, so the tool would ride on every
  // call for nothing (full then sends exactly the router's tools); the compaction has changed the
  // prompt's prefix anyway.
  const gatedTools = [...(offersTasksTool ? [tasksToolGated({ afterCompactionOnly: true })] : []), ...(offersRecallTool ? [recallToolGated()] : [])];
  const gateTools = store && gatedTools.length > 0 ? createToolGate({ store, guard, tools: gatedTools }) : undefined;
  const hooks: Hooks = {
    config: async (config) => {
      // The hidden agent that answers the plug-in's own calls to the user's models.
      if (usesOpencodeModels) config.agent = { ...config.agent, [AUX_AGENT]: { ...AUX_AGENT_CONFIG, permission: { ...AUX_AGENT_CONFIG.permission } } };
      config.command = { ...config.command, [RCM_COMMAND]: { ...RCM_COMMAND_CONFIG }, [RCM_TYPED_COMMAND]: { ...RCM_TYPED_COMMAND_CONFIG } };
    },
    "command.execute.before": createCommandHook({ deps, client: input.client, sessionModels, sessionAgents, stateDir }),
    "chat.message": async (hookInput, output) => {
      await deps.guard("chat.message", hookInput.sessionID, async () => {
        const model = hookInput.model ?? output.message.model;
        if (model && hookInput.agent !== AUX_AGENT) sessionModels.set(hookInput.sessionID, { providerID: model.providerID, modelID: model.modelID });
        if (hookInput.agent && hookInput.agent !== AUX_AGENT) sessionAgents.set(hookInput.sessionID, hookInput.agent);
        const text = userRequestText(output.parts as unknown as Part[]);
        if (!deps.routing || text === "") return;
        const routed = await deps.routing.route(hookInput.sessionID, output.message.id, text);
        const kept = options.fallback === "candidates" ? routed?.entry.candidates : undefined;
        const shown =
          routed && routingToast({ ...routed, threshold: options.confidenceThreshold, kept, moveCommand: checkTuiPart ? "/rcm move" : "/rcm-text move" });
        // Not awaited: a toast must not delay the turn.
        if (shown) void toast(shown);
      });
    },
    // The hook's declared types are the stale v1 shapes; the runtime objects are v2.
    "experimental.chat.messages.transform": async (hookInput, output) => {
      const current = output as unknown as TransformOutput;
      // First: it marks the user message OpenCode took for this call, which the transform may move.
      await gateTools?.(current.messages);
      await transform(hookInput, current);
    },
    "experimental.session.compacting": async (hookInput, output) => {
      await deps.guard("compacting", hookInput.sessionID, async () => {
        deps.sessions.markCompactionClone(hookInput.sessionID);
        // The summary may be all that is left of a task: bring every record up to date first (the
        // transform then puts them in place of the exchanges they cover in what is summarized).
        await memory?.updateBeforeCompaction(hookInput.sessionID, COMPACTION_UPDATE_WAIT_MS);
        const state = memory && store ? await store.read(hookInput.sessionID) : undefined;
        if (!state) return;
        const text = compactionInstructions(state);
        if (text !== undefined) output.context.push(text);
      });
    },
    event: async ({ event }) => {
      await deps.guard("event", undefined, async () => {
        await titles?.observe(event);
        if (event.type === "session.deleted") {
          store?.forget(event.properties.info.id);
          memory?.forget(event.properties.info.id);
          budgets?.forget(event.properties.info.id);
          sessionModels.delete(event.properties.info.id);
          sessionAgents.delete(event.properties.info.id);
          return;
        }
        // The TUI's /rcm move, off and on announce themselves with a toast: apply them now, not at the next request.
        if (event.type === "tui.toast.show" && event.properties.title === INTENT_TOAST_TITLE) {
          await store?.pickUp();
          return;
        }
        if (event.type === "message.updated") {
          memory?.observeStep(event.properties.info as unknown as Message);
          return;
        }
        if (event.type !== "session.idle") return;
        // After the first turn, with the TUI showing its session (a toast sent as it switches from the home screen is lost).
        if (checkTuiPart) void checkTuiPart().catch((error: unknown) => logger.log("warn", `TUI part check: ${messageOf(error)}`));
        await store?.flush(event.properties.sessionID);
        memory?.scheduleUpdate(event.properties.sessionID);
      });
    },
  };
  if (offersTasksTool) hooks.tool = { [TASKS_TOOL]: createTasksTool({ store, recordTokens: options.memory.recordTokens }) };
  if (offersRecallTool && store) hooks.tool = { ...hooks.tool, [RECALL_TOOL]: createRecallTool({ store, source, routing }) };
  return hooks;
};

const plugin: PluginModule & { id: string } = { id: "opencode-rcm", server };
export default plugin;
