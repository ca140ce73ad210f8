import { main } from "../../src/cli/main.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in this process, as the bin runs it: `main` on `argv`, its stdout and stderr kept as
 * text, `env` its whole environment (nothing of this process's), no terminal and no Ctrl-C.
 */
export async function runCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } };
  const code = await main(argv, io, env);
  return { code, stdout, stderr };
}

/** runCli that fails as execFile does when the exit status is not 0: the error carries the run (code, stdout, stderr). */
export async function runCliOk(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<CliRun> {
  const result = await runCli(argv, env);
  if (result.code !== 0) throw Object.assign(new Error(`opencode-rcm ${argv.join(" ")} exited with ${result.code}: ${result.stderr}`), result);
  return result;
}
