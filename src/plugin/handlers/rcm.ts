import { messageOf } from "../../kit/errors/message-of.js";
import { createAux, createMemoryUpdater, createRouter } from "../auxiliary/create-aux-users.js";
import type { OpencodeModelRef } from "../auxiliary/opencode-client.js";
import { loadOptions } from "../config/load-options.js";
import { modeParts } from "../config/modes.js";
import { describeProblem } from "../config/option-problem.js";
import { auxSourceOf } from "../config/options-schema.js";
import { userRequestText } from "../core/interaction-groups.js";
import { compactionInstructions } from "../core/memory/compaction-instructions.js";
import type { Message, MessageWithParts, Part } from "../core/messages.js";
import { problemsToast, routingToast } from "../session-views/toasts.js";
import { createCallBudgets } from "../sessions/call-budgets.js";
import { createFailOpenGuard } from "../sessions/fail-open-guard.js";
import type { Host } from "../sessions/host.js";
import { modelThresholds } from "../sessions/model-thresholds.js";
import { COMPACTION_UPDATE_WAIT_MS, createSessionMemory } from "../sessions/session-memory.js";
import { createSessionResume } from "../sessions/session-resume.js";
import { createSessionRouting } from "../sessions/session-routing.js";
import type { SessionSource } from "../sessions/session-source.js";
import { createSessionSplit } from "../sessions/session-split.js";
import { createLiveSessions, createSessionStore, type IntentApplier, type LiveSessions } from "../sessions/session-store.js";
import { createVerbDispatcher } from "../sessions/verb-dispatcher.js";
import { noteProject } from "../store/project-file.js";
import { resolveStateDir } from "../store/state-dir.js";
import { markDeletedSession } from "../store/task-marks.js";
import type { PluginDeps } from "./deps.js";
import { answerRcmCommand } from "./rcm-command.js";
import { createRecallAnswer } from "./recall-answer.js";
import { recallToolGated } from "./recall-tool-gate.js";
import { createTasksAnswer } from "./tasks-answer.js";
import { tasksToolGated } from "./tasks-tool-gate.js";
import { createToolGate } from "./tool-gate.js";
import { createTransformHandler } from "./transform-handler.js";

/**
 * The plug-in in one session-serving object, whatever the host: the handlers a host adapter
 * calls at its events, and nothing else (what the host's own parts need at start-up comes
 * through `Host.loaded`). Every handler is guarded: a failure is logged, never thrown.
 */
export interface Rcm {
  /** A user request arrived (before any model call for it): note its model and agent, route it, toast what is news. */
  request(request: {
    sessionID: string;
    messageID: string;
    /** The request's parts: its text is what is routed. */
    parts: readonly Part[];
    model?: OpencodeModelRef | undefined;
    agent?: string | undefined;
    /** The move the toast suggests: "/rcm move" where the TUI part answers, else "/rcm-text move". */
    moveCommand: string;
  }): Promise<void>;
  /** A model call is about to be sent with `messages` (changed in place: the host reads the same array). */
  modelCall(messages: MessageWithParts[]): Promise<void>;
  /** The host compacts the session: what its summary must keep, if anything. */
  compacting(sessionID: string): Promise<string | undefined>;
  sessionDeleted(sessionID: string): void;
  /** The TUI left a move, off, on or split for the server part (store/session-inbox.ts): apply it now. */
  intentsAnnounced(): Promise<void>;
  /** An assistant step was stored or updated (its token counts feed the memory's budget). */
  stepUpdated(message: Message): void;
  /** The session's turn ended: write its state and bring its records up to date. */
  turnEnded(sessionID: string): Promise<void>;
  /**
   * `/rcm-text <words>` (handlers/rcm-command.ts), answered without a model: the text (a
   * failure becomes the answer), and the session's latest model and agent, which a host that
   * stores the answer as a message keeps it with.
   */
  command(sessionID: string, words: string): Promise<CommandAnswer>;
  /** The model's tools, when the mode offers them: their answers (the host declares their arguments). */
  tools: { tasks?: ReturnType<typeof createTasksAnswer> | undefined; recall?: ReturnType<typeof createRecallAnswer> | undefined };
}

/** `Rcm.command`'s result. */
interface CommandAnswer {
  text: string;
  model?: OpencodeModelRef | undefined;
  agent?: string | undefined;
}

/**
 * Builds the plug-in from its raw options and a host (the composition root's host-neutral
 * part): config, state and the sessions' routing and memory, once per server.
 */
export async function createRcm(start: {
  host: Host;
  rawOptions: unknown;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** The cache the sessions' live objects go in (a test passes its own to look inside); by default a new one. */
  sessions?: LiveSessions | undefined;
}): Promise<Rcm> {
  const { host, env, home } = start;
  const { logger, project, source } = host;
  const { options, problems, files } = await loadOptions({ tuple: start.rawOptions, directory: project.directory, worktree: project.worktree, env, home });
  // Options problems, loud at start-up: each in the log, and one toast for all (whatever
  // `notify` says: a bad key falls back alone and the rest works, which the user must know).
  for (const problem of problems) await logger.log("warn", describeProblem(problem), { key: problem.key });
  if (problems.length > 0) {
    host.terminal?.(problems.map((problem) => `opencode-rcm: config problem: ${describeProblem(problem)}\n`).join(""));
    // Not awaited: OpenCode's toast route waits for this instance, whose start-up waits for the plug-in.
    void host.toast(problemsToast(problems), 10_000);
  }
  const toast = options.notify === "toast" ? host.toast : undefined;
  const { routes, narrows, remembers } = modeParts(options.mode);
  const guard = createFailOpenGuard(logger);
  // Everything held in memory about a session, in one object per session.
  const sessions = start.sessions ?? createLiveSessions();
  // The model of the session's latest request is the host-models aux source's last resort.
  const aux = routes
    ? createAux(
        options,
        env,
        host.models((sessionID) => sessions.peek(sessionID)?.model),
      )
    : undefined;
  const stateDir = resolveStateDir({ stateDir: options.stateDir, projectID: project.id, env, home });
  host.loaded({ stateDir, routes, usesHostModels: aux !== undefined && auxSourceOf(options.aux) === "opencode", debug: options.debug });
  // So the CLI finds this project's sessions from a folder in it.
  const settings = { mode: options.mode, router: options.router, confidenceThreshold: options.confidenceThreshold };
  if (routes)
    await noteProject(stateDir, { projectID: project.id, worktree: project.worktree, directory: project.directory, settings }).catch((error: unknown) =>
      logger.log("warn", `could not note the project in ${stateDir}: ${messageOf(error)}`),
    );
  // Routing and memory are peers over one store of the sessions' state.
  // The TUI's and the CLI's moves and splits go through the same verbs as /rcm-text's (made just below).
  const applyIntent: IntentApplier = (session, intent) => (verbs ? verbs.apply(session, intent) : Promise.reject(new Error("no verbs yet")));
  const store = routes ? createSessionStore({ stateDir, source, logger, sessions, applyIntent }) : undefined;
  // After a move the records of the tasks involved are written again (memory is made just below).
  const onMoved = (sessionID: string): void => memory?.scheduleUpdate(sessionID);
  // A task of an earlier session resumed here brings its record: only with memory.
  const resume =
    store && remembers
      ? createSessionResume({
          stateDir,
          source,
          logger,
          threshold: options.confidenceThreshold,
          maxAgeDays: options.resume.maxAgeDays,
          maxTasks: options.resume.maxTasks,
        })
      : undefined;
  const routing = store
    ? createSessionRouting({ store, router: createRouter(options, aux), source, logger, threshold: options.confidenceThreshold, onMoved, resume })
    : undefined;
  // `/rcm split`: a task goes on in a new session.
  const split = store
    ? createSessionSplit({ store, source, host: host.split, logger, recordTokens: options.memory.recordTokens, threshold: options.confidenceThreshold })
    : undefined;
  const memoryUpdater = remembers ? createMemoryUpdater(options, aux) : undefined;
  const memory =
    store && memoryUpdater
      ? createSessionMemory({
          sessions,
          store,
          source,
          updater: memoryUpdater,
          logger,
          guard,
          threshold: options.confidenceThreshold,
          replaceBatchTokens: options.memory.replaceBatchTokens,
          // OpenCode names "/" the worktree of a project outside git: its directory is the root then.
          root: host.project.worktree === "/" ? host.project.directory : host.project.worktree,
        })
      : undefined;
  // Read from the host itself: the memory never pushes a call over the window the host compacts at.
  const budgets = memory ? createCallBudgets(modelThresholds(() => host.modelLimits())) : undefined;
  const verbs = store && routing && split ? createVerbDispatcher({ store, routing, split, resume }) : undefined;
  const deps: PluginDeps = { options, logger, guard, sessions, store, routing, verbs, memory, budgets };
  await logger.log(
    "info",
    `loaded in ${options.mode} mode${routes ? ` with the ${options.router} router` : ""}${memoryUpdater ? ` and the ${memoryUpdater.name} memory updater` : ""}`,
    { directory: project.directory, configFiles: files },
  );

  return rcmHandlers({ deps, source, toast, narrows, stateDir });
}

/** The handlers over the plug-in's parts: what `createRcm` hands the host. */
function rcmHandlers(parts: { deps: PluginDeps; source: SessionSource; toast: Host["toast"] | undefined; narrows: boolean; stateDir: string }): Rcm {
  const { deps, source, toast, narrows, stateDir } = parts;
  const { options, guard, sessions, store, routing, memory } = deps;
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

  return {
    async request({ sessionID, messageID, parts, model, agent, moveCommand }) {
      await guard("chat.message", sessionID, async () => {
        const text = userRequestText(parts);
        const live = sessions.get(sessionID);
        if (model) live.model = { providerID: model.providerID, modelID: model.modelID };
        if (agent) live.agent = agent;
        if (!routing || text === "") return;
        const routed = await routing.route(sessionID, messageID, text);
        const kept = options.fallback === "candidates" ? routed?.entry.candidates : undefined;
        const shown = routed && routingToast({ ...routed, threshold: options.confidenceThreshold, kept, moveCommand });
        // Not awaited: a toast must not delay the turn.
        if (shown && toast) void toast(shown);
      });
    },
    async modelCall(messages) {
      // First: it marks the user message the host took for this call, which the transform may move.
      await gateTools?.(messages);
      await transform(undefined, { messages });
    },
    async compacting(sessionID) {
      let text: string | undefined;
      await guard("compacting", sessionID, async () => {
        sessions.get(sessionID).compactionClone = true;
        // The summary may be all that is left of a task: bring every record up to date first (the
        // transform then puts them in place of the exchanges they cover in what is summarized).
        await memory?.updateBeforeCompaction(sessionID, COMPACTION_UPDATE_WAIT_MS);
        const state = memory && store ? await store.read(sessionID) : undefined;
        if (state) text = compactionInstructions(state);
      });
      return text;
    },
    sessionDeleted(sessionID) {
      // The guard runs its body at once: the session leaves memory before this returns.
      void guard("event", sessionID, async () => {
        // Everything held in memory about it at once (and, with a store, its inbox).
        if (store) store.forget(sessionID);
        else sessions.forget(sessionID);
        // Its unfinished tasks are listed no more, unless the person keeps deleted sessions' tasks.
        if (store && !options.resume.keepDeletedSessions) await markDeletedSession(stateDir, sessionID, new Date());
      });
    },
    async intentsAnnounced() {
      await guard("event", undefined, async () => {
        await store?.pickUp();
      });
    },
    stepUpdated(message) {
      void guard("event", message.sessionID, () => memory?.observeStep(message));
    },
    async turnEnded(sessionID) {
      await guard("turn end", sessionID, async () => {
        await store?.flush(sessionID);
        memory?.scheduleUpdate(sessionID);
      });
    },
    async command(sessionID, words) {
      let text: string;
      try {
        text = await answerRcmCommand(deps, sessionID, words);
      } catch (error) {
        text = `opencode-rcm: ${messageOf(error)}`;
      }
      const live = sessions.peek(sessionID);
      return { text, model: live?.model, agent: live?.agent };
    },
    tools: {
      tasks: offersTasksTool ? createTasksAnswer({ store, recordTokens: options.memory.recordTokens }) : undefined,
      recall: offersRecallTool && store ? createRecallAnswer({ store, source, routing }) : undefined,
    },
  };
}
