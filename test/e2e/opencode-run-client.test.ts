import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createIsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { opencodeBinary } from "../../src/lab/harness/opencode-binary.js";
import { offlineConfig } from "../../src/lab/harness/opencode-config.js";
import { startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { ASK, EVERYDAY_SCRIPT } from "./support/everyday-session.js";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-opencode-run");
});
afterAll(async () => {
  await temp?.remove();
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `opencode <args>` in `cwd` with stdin closed (run reads it otherwise), whatever its exit status. */
function opencode(args: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      opencodeBinary(),
      [...args],
      { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, maxBuffer: 10 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe("opencode run, a client without the TUI part", () => {
  it("prints option problems on stderr; /rcm-text is answered in the session but run exits 1 without printing it (OpenCode has no 'handled' flag)", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests.jsonl") });
    try {
      const home = await createIsolatedHome({
        root: join(temp.path, "home"),
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[packageRoot(), { mode: "router", stateDir: join(temp.path, "state") }]] }),
      });
      await writeFile(join(home.configDir, "rcm.jsonc"), `{ "confidenceTreshold": 0.7 }\n`);
      const first = await opencode(["run", "--format", "json", ASK.dates], repo, home.env);
      expect(first.code).toBe(0);
      expect(first.stderr.split("\n")[0]).toBe(
        `opencode-rcm: config problem: ${join(home.configDir, "rcm.jsonc")}:1: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored`,
      );
      const sessionID = /"sessionID":"(ses_[^"]+)"/.exec(first.stdout)?.[1];
      if (!sessionID) throw new Error(`no session in ${first.stdout}`);
      const before = (await model.requests()).length;

      const command = await opencode(["run", "-s", sessionID, "--command", "rcm-text", "status"], repo, home.env);
      expect(command.code).toBe(1);
      expect(command.stdout).toBe("");
      expect(command.stderr).toContain("Unexpected server error");
      expect((await model.requests()).length).toBe(before);
      const exported = await opencode(["export", sessionID], repo, home.env);
      expect(exported.stdout).toContain("/rcm-text status\\nopencode-rcm is on: mode router, lexical router, sure from 80%.");
    } finally {
      await model.close();
    }
  }, 240_000);
});
