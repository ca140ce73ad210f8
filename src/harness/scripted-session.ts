import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { MessageWithParts } from "../core/messages.js";
import { startScriptedModel, type RecordedRequest, type Responder, type Script } from "../scripted-model/index.js";
import { createIsolatedHome } from "./isolated-home.js";
import { offlineConfig, type PluginEntry } from "./opencode-config.js";
import { startOpencodeServer } from "./opencode-server.js";

export interface ScriptedSessionResult {
  /** Every request body the model received, in order. */
  requests: RecordedRequest[];
  /** The session's stored history after the last request. */
  messages: MessageWithParts[];
  sessionID: string;
  /** What the OpenCode server printed (its log, with the plug-in's lines). */
  serverOutput: string;
}

/**
 * Runs one OpenCode session in `directory` against the scripted model: each prompt is sent
 * in order and awaited. Everything (XDG dirs, model log) lives under `runDir`; every
 * process started here is stopped before this returns.
 */
export async function runScriptedSession(options: {
  runDir: string;
  directory: string;
  script: Script | Responder;
  prompts: readonly string[];
  plugins: readonly PluginEntry[];
  env?: Record<string, string>;
  contextLimit?: number;
  onRequestDone?: (index: number) => void;
}): Promise<ScriptedSessionResult> {
  await mkdir(options.runDir, { recursive: true });
  const model = await startScriptedModel({ script: options.script, logFile: join(options.runDir, "model-requests.jsonl") });
  try {
    const home = await createIsolatedHome({
      root: join(options.runDir, "home"),
      config: offlineConfig({
        modelBaseURL: model.url,
        plugins: options.plugins,
        ...(options.contextLimit ? { contextLimit: options.contextLimit } : {}),
      }),
    });
    const server = await startOpencodeServer({ home, cwd: options.directory, ...(options.env ? { env: options.env } : {}) });
    try {
      const client = server.client(options.directory);
      const session = await client.session.create({}, { throwOnError: true });
      const sessionID = session.data.id;
      for (const [index, text] of options.prompts.entries()) {
        await client.session.prompt({ sessionID, parts: [{ type: "text", text }] }, { throwOnError: true });
        options.onRequestDone?.(index);
      }
      const stored = await client.session.messages({ sessionID }, { throwOnError: true });
      return {
        requests: await model.requests(),
        messages: stored.data as MessageWithParts[],
        sessionID,
        serverOutput: server.output(),
      };
    } finally {
      await server.close();
    }
  } finally {
    await model.close();
  }
}
