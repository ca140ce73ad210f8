import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { OpencodeClient } from "@opencode-ai/sdk/v2";
import type { MessageWithParts } from "../../plugin/core/messages.js";
import { type RecordedRequest, type Responder, type Script, type ScriptedModel, startScriptedModel } from "../scripted-model/index.js";
import { createIsolatedHome } from "./isolated-home.js";
import { offlineConfig, type PluginEntry } from "./opencode-config.js";
import { type OpencodeServer, startOpencodeServer } from "./opencode-server.js";

export interface ScriptedOpencodeOptions {
  /** Everything (XDG dirs, model log) is written under this directory. */
  runDir: string;
  /** The project directory the server starts in and the client is bound to. */
  directory: string;
  script: Script | Responder;
  plugins: readonly PluginEntry[];
  env?: Record<string, string>;
  /** The opencode binary; default: opencodeBinary(). */
  binary?: string | undefined;
  contextLimit?: number;
  outputLimit?: number;
}

export interface ScriptedOpencode {
  client: OpencodeClient;
  server: OpencodeServer;
  model: ScriptedModel;
  /** Sends one request and waits for the turn to end. */
  prompt(sessionID: string, text: string): Promise<void>;
  messages(sessionID: string): Promise<MessageWithParts[]>;
}

/**
 * Starts the scripted model and a real OpenCode server wired to it, runs `body`, and stops
 * both whatever happens.
 */
export async function withScriptedOpencode<T>(options: ScriptedOpencodeOptions, body: (context: ScriptedOpencode) => Promise<T>): Promise<T> {
  await mkdir(options.runDir, { recursive: true });
  const model = await startScriptedModel({ script: options.script, logFile: join(options.runDir, "model-requests.jsonl") });
  try {
    const home = await createIsolatedHome({
      root: join(options.runDir, "home"),
      config: offlineConfig({
        modelBaseURL: model.url,
        plugins: options.plugins,
        ...(options.contextLimit ? { contextLimit: options.contextLimit } : {}),
        ...(options.outputLimit ? { outputLimit: options.outputLimit } : {}),
      }),
    });
    const server = await startOpencodeServer({ home, cwd: options.directory, binary: options.binary, ...(options.env ? { env: options.env } : {}) });
    try {
      const client = server.client(options.directory);
      return await body({
        client,
        server,
        model,
        async prompt(sessionID, text) {
          await client.session.prompt({ sessionID, parts: [{ type: "text", text }] }, { throwOnError: true });
        },
        async messages(sessionID) {
          const stored = await client.session.messages({ sessionID }, { throwOnError: true });
          return stored.data as MessageWithParts[];
        },
      });
    } finally {
      await server.close();
    }
  } finally {
    await model.close();
  }
}

export interface ScriptedSessionResult {
  /** Every request body the model received, in order. */
  requests: RecordedRequest[];
  /** The session's stored history after the last request. */
  messages: MessageWithParts[];
  sessionID: string;
  /** What the OpenCode server printed (its log, with the plug-in's lines). */
  serverOutput: string;
}

/** Runs one session: each prompt is sent in order and awaited. */
export async function runScriptedSession(
  options: ScriptedOpencodeOptions & { prompts: readonly string[]; onRequestDone?: (index: number) => void },
): Promise<ScriptedSessionResult> {
  return withScriptedOpencode(options, async ({ client, server, model, prompt, messages }) => {
    const session = await client.session.create({}, { throwOnError: true });
    const sessionID = session.data.id;
    for (const [index, text] of options.prompts.entries()) {
      await prompt(sessionID, text);
      options.onRequestDone?.(index);
    }
    return {
      requests: await model.requests(),
      messages: await messages(sessionID),
      sessionID,
      serverOutput: server.output(),
    };
  });
}
