import { execFile } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createIsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { opencodeBinary } from "../../src/lab/harness/opencode-binary.js";
import { offlineConfig } from "../../src/lab/harness/opencode-config.js";
import { type ChatRequestBody, messageText, type Responder, selectReply, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { runCli } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startTui } from "../support/tmux-tui.js";
import { ASK, EVERYDAY_SCRIPT, replyOf } from "./support/everyday-session.js";

const PACKAGE = packageRoot();
const TITLES = { dates: "Fix the date parser", json: "Add a --json flag" } as const;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-cli-on-screen");
});
afterAll(async () => {
  await temp?.remove();
});

/** The everyday replies, and OpenCode's title calls answered with a title of the request. */
const withTitles: Responder = ({ body }) => {
  const system = body.messages
    .filter((message) => message.role === "system")
    .map((message) => messageText(message.content))
    .join("\n");
  if (!system.includes("You are a title generator")) return selectReply({ script: EVERYDAY_SCRIPT, body }).reply;
  const asked = JSON.stringify((body as ChatRequestBody).messages);
  return { text: asked.includes(ASK.json.slice(0, 30)) ? TITLES.json : TITLES.dates };
};

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A program with stdin closed (opencode run reads it otherwise), whatever its exit status. */
function ran(file: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(file, [...args], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** The TUI's screen markers under the default state root, as written. */
async function markers(dataHome: string): Promise<Array<{ sessionID: string; title?: string }>> {
  const root = join(dataHome, "opencode", "rcm");
  const found: Array<{ sessionID: string; title?: string }> = [];
  for (const project of await readdir(root).catch(() => [])) {
    const dir = join(root, project, "screens");
    for (const name of await readdir(dir).catch(() => []))
      found.push((JSON.parse(await readFile(join(dir, name), "utf8")) as { data: { sessionID: string; title?: string } }).data);
  }
  return found;
}

describe("opencode-rcm's CLI with no session named (the real TUI under tmux, then opencode run)", () => {
  it("answers about the session on screen in the TUI, not the newer one an opencode run wrote, and names its title", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: withTitles, logFile: join(temp.path, "model-requests.jsonl") });
    try {
      // OpenCode's own title calls on (quietConfig turns them off): the sessions get real titles.
      const config = { ...offlineConfig({ modelBaseURL: model.url, plugins: [[PACKAGE, { mode: "router" }]] }), agent: {} };
      const home = await createIsolatedHome({ root: join(temp.path, "home"), config, tui: { plugin: [PACKAGE] } });
      const dataHome = home.env.XDG_DATA_HOME as string;
      // The CLI in this process: its main, with the isolated home's environment.
      const cli = (...args: string[]) => runCli([...args, "--dir", repo], home.env);
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      let onScreen = "";
      let fromRun = "";
      try {
        await tui.submit(ASK.dates, (screen) => screen.includes(replyOf("dates")), 90_000);
        // The TUI part names the session it shows, with the title OpenCode gave it.
        const deadline = Date.now() + 20_000;
        while (!(await markers(dataHome)).some((marker) => marker.title === TITLES.dates) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 200));
        const [marker] = await markers(dataHome);
        expect(marker?.title).toBe(TITLES.dates);
        onScreen = marker?.sessionID as string;

        const run = await ran(opencodeBinary(), ["run", "--format", "json", ASK.json], repo, home.env);
        expect(run.code).toBe(0);
        fromRun = /"sessionID":"(ses_[^"]+)"/.exec(run.stdout)?.[1] as string;
        expect(fromRun).toMatch(/^ses_/);
        expect(fromRun).not.toBe(onScreen);
        const sessions = join(
          (await readdir(join(dataHome, "opencode", "rcm"))).map((name) => join(dataHome, "opencode", "rcm", name))[0] as string,
          "sessions",
        );
        const written = async (id: string) => (await stat(join(sessions, `${id}.json`))).mtimeMs;
        expect(await written(fromRun)).toBeGreaterThan(await written(onScreen));

        const status = await cli("status");
        expect(status.code).toBe(0);
        expect(status.stdout.split("\n")[0]).toBe(`Session ${onScreen} "${TITLES.dates}" (on screen in the TUI)`);
        expect(status.stdout).toContain("Fix the date parser in src/dates.py");
        const latest = await cli("status", "latest");
        expect(latest.stdout.split("\n")[0]).toBe(`Session ${fromRun} "${TITLES.json}" (latest: the session opencode-rcm wrote last)`);
      } finally {
        await tui.close();
      }
      // The TUI is gone (killed with its tmux server): its marker no longer counts.
      const after = await cli("tasks");
      expect(after.stdout.split("\n")[0]).toBe(`Session ${fromRun} "${TITLES.json}" (no TUI open here: the latest session opencode-rcm wrote)`);
      // The markers and titles cost OpenCode no error.
      const log = await readFile(join(dataHome, "opencode", "log", "opencode.log"), "utf8");
      expect(log.split("\n").filter((line) => line.includes("level=ERROR"))).toEqual([]);
    } finally {
      await model.close();
    }
  }, 240_000);
});
