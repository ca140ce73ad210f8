import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtEntry } from "../../kit/package-root.js";
import type { Mode } from "../../plugin/config/options-schema.js";
import { opencodeBinary } from "../harness/opencode-binary.js";
import { runScriptedSession } from "../harness/scripted-session.js";
import type { ChatRequestBody } from "../scripted-model/index.js";
import { type ModelCallView, viewModelCall } from "./model-call-view.js";
import { createTodoRepo, multiTaskScript, PROMPTS } from "./multi-task-session.js";

export interface DemoOptions {
  mode: Mode;
  debug: boolean;
  /** Keep the run directory (repository, XDG dirs, request log) instead of deleting it. */
  keep: boolean;
  onProgress?: (line: string) => void;
  /** Where OPENCODE_BIN is read (the CLI's environment with its --opencode-bin); default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface DemoResult {
  mode: Mode;
  prompts: readonly string[];
  calls: ModelCallView[];
  finalFile: string;
  wallMs: number;
  runDir: string | null;
}

/**
 * Runs the scripted multi-task session through the real OpenCode with the built plug-in
 * loaded in `mode`, and returns what the model received at each call.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = Date.now();
  const root = await mkdtemp(join(tmpdir(), "opencode-rcm-demo-"));
  try {
    const repo = join(root, "repo");
    await createTodoRepo(repo);
    options.onProgress?.(`starting OpenCode in ${repo}`);
    const result = await runScriptedSession({
      binary: opencodeBinary(options.env),
      runDir: join(root, "run"),
      directory: repo,
      script: multiTaskScript(repo),
      prompts: PROMPTS,
      plugins: [[builtEntry("./server"), { mode: options.mode, debug: options.debug }]],
      onRequestDone: (index) => options.onProgress?.(`request ${index + 1}/${PROMPTS.length} done`),
    });
    return {
      mode: options.mode,
      prompts: PROMPTS,
      calls: result.requests.map((request) => viewModelCall(request.index, request.body as ChatRequestBody, repo, PROMPTS)),
      finalFile: await readFile(join(repo, "notes", "todo.md"), "utf8"),
      wallMs: Date.now() - started,
      runDir: options.keep ? root : null,
    };
  } finally {
    if (!options.keep) await rm(root, { recursive: true, force: true });
  }
}
