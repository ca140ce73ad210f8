import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepo } from "../../src/harness/git-repo.js";
import { createIsolatedHome } from "../../src/harness/isolated-home.js";
import { offlineConfig } from "../../src/harness/opencode-config.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { startTui } from "../../src/harness/tmux-tui.js";
import { startScriptedModel } from "../../src/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { ASK, EVERYDAY_SCRIPT, replyOf, requestFor } from "./support/everyday-session.js";

const PLUGIN = join(packageRoot(), "dist", "plugin", "index.js");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-tui-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("opencode-rcm in the real OpenCode TUI (tmux)", () => {
  it("shows /rcm status and why on screen, and /rcm move t1 changes what the next model call receives", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests.jsonl") });
    try {
      const home = await createIsolatedHome({
        root: join(temp.path, "home"),
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[PLUGIN, { mode: "router", stateDir: join(temp.path, "state") }]] }),
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        for (const key of ["dates", "json", "install"] as const) {
          await tui.submit(ASK[key], (screen) => screen.includes(replyOf(key)), 90_000);
        }
        // The toast for the task the last request opened (shown for 4 s).
        await tui.waitFor((screen) => screen.includes("RCM: new task t3"), "the new-task toast", 4_000);
        const calls = (await model.requests()).length;

        const status = await tui.submit("/rcm status", (screen) => screen.includes("Saved so far"));
        expect(status).toContain("opencode-rcm: mode router, router lexical, threshold 0.8, on");
        expect(status).toMatch(/ {2}t1 +suspended +1 req +last: 2 requests ago +Fix the date parser/);
        expect(status).toMatch(/ {2}t2 +suspended +1 req +last: 1 request ago +New task: add a --json flag/);
        expect(status).toMatch(/\* t3 +current +1 req +last: latest request +New task: the install guide is out of date/);
        expect(status).toMatch(/Last decision: opened t3 .*, confidence 0\.9\d+, lexical router/);

        const why = await tui.submit("/rcm why", (screen) => screen.includes("Groups by task:"));
        expect(why).toMatch(/Narrowed to task t3, confidence 0\.9\d+/);
        expect(why).toMatch(/t1: 1 left out/);
        expect(why).toMatch(/t2: 1 left out/);

        const moved = await tui.submit("/rcm move t1", (screen) => screen.includes("Moved the last request"));
        expect(moved).toContain('Moved the last request from t3 to t1 "Fix the date parser');
        // The commands were answered by the plug-in: no model request.
        expect((await model.requests()).length).toBe(calls);

        // The moved request's files are t1's evidence now: the follow-up routes to t1.
        await tui.submit(ASK.toc, (screen) => screen.includes(replyOf("toc")));
        const next = requestFor(await model.requests(), ASK.toc);
        expect(next).toContain(ASK.dates.slice(0, 40));
        expect(next).toContain(ASK.install.slice(0, 40));
        expect(next).not.toContain(ASK.json.slice(0, 40));
        expect(next).not.toContain("opencode-rcm:");
        if (process.env["RCM_SHOW_TUI"]) console.log(`--- /rcm status ---\n${status}\n--- /rcm why ---\n${why}`);
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  });
});
