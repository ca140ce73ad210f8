import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepo } from "../../src/harness/git-repo.js";
import { createIsolatedHome } from "../../src/harness/isolated-home.js";
import { offlineConfig } from "../../src/harness/opencode-config.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { startTui, type TuiSession } from "../../src/harness/tmux-tui.js";
import { startScriptedModel } from "../../src/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { ASK, EVERYDAY_SCRIPT, replyOf, requestFor } from "./support/everyday-session.js";

// The package as a user lists it: the same entry in opencode.json (server part) and tui.json (TUI part).
const PACKAGE = packageRoot();
// The sidebar starts right of the session's column on a 160-column screen.
const SIDEBAR_COLUMN = 116;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-tui-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

/** The sidebar's text, right-trimmed, for assertions and for the screens a person reads. */
function sidebar(screen: string): string {
  return screen
    .split("\n")
    .map((line) => line.slice(SIDEBAR_COLUMN).trimEnd())
    .filter((line) => line !== "")
    .join("\n");
}

/** Keeps a screen for people to read (RCM_TUI_SCREENS=<dir>). */
async function keep(name: string, text: string): Promise<void> {
  const dir = process.env["RCM_TUI_SCREENS"];
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.txt`), `${text.replace(/\s+$/gm, "")}\n`);
}

/** `/rcm`, then the menu's entry `downs` rows below the first, then Enter; resolves with the screen `done` accepts. */
async function menu(tui: TuiSession, downs: number, done: (screen: string) => boolean, what: string): Promise<string> {
  const shown = await tui.submit("/rcm", (screen) => screen.includes("move…") && screen.includes("Search"));
  await keep("rcm-menu", shown);
  for (let step = 0; step < downs; step += 1) {
    await tui.keys("Down");
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await tui.keys("Enter");
  return tui.waitFor(done, what, 10_000);
}

/** Closes a dialog and waits until the prompt is back. */
async function closeDialog(tui: TuiSession, title: string): Promise<void> {
  await tui.keys("Enter");
  await tui.waitFor((screen) => !screen.includes(title), `${title} to close`, 5_000);
}

describe("opencode-rcm's own part of the real OpenCode TUI (tmux)", () => {
  it("keeps a task panel in the sidebar, runs /rcm inside the TUI with no model turn and no error, and moves a request picked from a list", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests.jsonl") });
    const homeRoot = join(temp.path, "home");
    try {
      const home = await createIsolatedHome({
        root: homeRoot,
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[PACKAGE, { mode: "router", stateDir: join(temp.path, "state") }]] }),
        tui: { plugin: [PACKAGE] },
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        for (const key of ["dates", "json", "install"] as const) {
          await tui.submit(ASK[key], (screen) => screen.includes(replyOf(key)), 90_000);
        }
        // The panel follows the session with no command: three tasks, t3 current, the last decision and call.
        const panel = await tui.waitFor((screen) => /Saved ~\d+ tokens in 3 calls/.test(sidebar(screen)), "the panel after three requests");
        const side = sidebar(panel);
        expect(side).toContain("RCM · router");
        expect(side).toMatch(/ {2}t1 Fix the date parser/);
        expect(side).toMatch(/ {2}t2 New task: add a --json flag/);
        expect(side).toMatch(/▶ t3 New task: the install guide/);
        expect(side).toMatch(/current · 1 req · latest request/);
        expect(side).toMatch(/Last request: t3, 9\d% sure/);
        expect(side).toContain("says it starts a new task");
        expect(side).toContain("the model gets only t3's history");
        expect(side).toContain("Last call: kept t3 1");
        expect(side).toContain("left out t1 1, t2 1");
        await keep("panel-three-tasks", side);
        const calls = (await model.requests()).length;

        const status = await menu(tui, 0, (screen) => screen.includes("/rcm status") && screen.includes("Saved so far"), "/rcm status");
        expect(status).toContain("opencode-rcm is on: mode router, lexical router, sure from 80%.");
        expect(status).toMatch(/\* t3 +current +1 request +latest request +New task: the install guide/);
        // The dialog wraps its lines: fragments that fit on one.
        expect(status).toMatch(/Last request: new task t3 "New task: the install guide is out of date", 9\d% sure:/);
        expect(status).toContain("says it starts a new task.");
        await keep("rcm-status", status);
        await closeDialog(tui, "/rcm status");

        const why = await menu(tui, 1, (screen) => screen.includes("/rcm why") && screen.includes("Left out:"), "/rcm why");
        expect(why).toMatch(/Last model call \(mode router\): only t3's history, 9\d% sure\./);
        expect(why).toMatch(/Left out: t1 1, t2 1/);
        await keep("rcm-why", why);
        await closeDialog(tui, "/rcm why");

        const tasks = await menu(tui, 2, (screen) => screen.includes("/rcm tasks") && screen.includes("goal:"), "/rcm tasks");
        expect(tasks).toContain("t1 [suspended] Fix the date parser");
        await closeDialog(tui, "/rcm tasks");

        await menu(tui, 3, (screen) => screen.includes("/rcm show: which task?"), "the task list of /rcm show");
        await tui.keys("Enter");
        const show = await tui.waitFor((screen) => screen.includes("/rcm show t1"), "/rcm show t1");
        expect(show).toContain("No memory record yet: memory is off in mode router");
        await closeDialog(tui, "/rcm show t1");

        // /rcm move: a list of the other tasks and "new"; picking t1 moves request 3 at once (the server applies it on the toast).
        const list = await menu(tui, 4, (screen) => screen.includes("/rcm move: request 3 (now t3) belongs to"), "the move list");
        expect(list).toMatch(/t1 {2}Fix the date parser/);
        expect(list).toMatch(/t2 {2}New task: add a --json flag/);
        expect(list).toMatch(/new +a new task, titled after the request/);
        await keep("rcm-move-list", list);
        await tui.keys("Enter");
        const moved = await tui.waitFor((screen) => sidebar(screen).includes("Last request: t1, you moved it"), "the panel after the move");
        expect(moved).toContain("/rcm move t1: request 3 moves from t3 to t1");
        expect(sidebar(moved)).toMatch(/▶ t1 Fix the date parser/);
        expect(sidebar(moved)).toContain("Call before the move: kept t3 1");
        await keep("panel-after-move", moved);
        // Every /rcm so far ran in the TUI: no model request.
        expect((await model.requests()).length).toBe(calls);

        // The moved request's files are t1's evidence now: the follow-up routes to t1.
        await tui.submit(ASK.toc, (screen) => screen.includes(replyOf("toc")));
        const next = requestFor(await model.requests(), ASK.toc);
        expect(next).toContain(ASK.dates.slice(0, 40));
        expect(next).toContain(ASK.install.slice(0, 40));
        expect(next).not.toContain(ASK.json.slice(0, 40));

        await menu(tui, 5, (screen) => sidebar(screen).includes("RCM · router · OFF"), "the panel switched off");
        await menu(tui, 5, (screen) => /RCM · router\s*\n/.test(`${sidebar(screen)}\n`) && !sidebar(screen).includes("OFF"), "the panel switched on");
      } finally {
        await tui.close();
      }
      // Not one ERROR line in OpenCode's log after every /rcm action.
      const log = await readFile(join(homeRoot, "data", "opencode", "log", "opencode.log"), "utf8");
      expect(log.split("\n").filter((line) => line.includes("level=ERROR"))).toEqual([]);
      expect(log).toContain("moved a request from t3 to t1");
    } finally {
      await model.close();
    }
  }, 300_000);

  it("in mode memory, shows the task's record in the panel and in /rcm show after its first turn", async () => {
    const repo = join(temp.path, "repo-memory");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests-memory.jsonl") });
    try {
      const home = await createIsolatedHome({
        root: join(temp.path, "home-memory"),
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[PACKAGE, { mode: "memory", stateDir: join(temp.path, "state-memory") }]] }),
        tui: { plugin: [PACKAGE] },
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        await tui.submit(ASK.dates, (screen) => screen.includes(replyOf("dates")), 90_000);
        const panel = await tui.waitFor((screen) => /Memory of t1: \d+ rules?/.test(sidebar(screen)), "the record in the panel after one turn");
        // The rule wraps in the narrow sidebar.
        expect(sidebar(panel).replace(/\s+/g, " ")).toContain("• Fix the date parser in src/dates.");
        await keep("panel-memory-first-turn", sidebar(panel));
        await menu(tui, 3, (screen) => screen.includes("/rcm show: which task?"), "the task list of /rcm show");
        await tui.keys("Enter");
        const show = await tui.waitFor((screen) => screen.includes("/rcm show t1") && screen.includes("Constraints"), "/rcm show t1 with its record");
        expect(show).not.toContain("No memory record yet");
        expect(show).toContain("Fix the date parser in src/dates.py");
        await keep("rcm-show-first-turn", show);
        await closeDialog(tui, "/rcm show t1");
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 180_000);

  it("shows an option problem on screen once the TUI is up: a toast and a line in the panel", async () => {
    const repo = join(temp.path, "repo-problem");
    await createGitRepo(repo, { "README.md": "# tools\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests-problem.jsonl") });
    try {
      const home = await createIsolatedHome({
        root: join(temp.path, "home-problem"),
        config: offlineConfig({ modelBaseURL: model.url, plugins: [PACKAGE] }),
        tui: { plugin: [PACKAGE] },
      });
      await writeFile(join(home.configDir, "rcm.jsonc"), `{\n  // typo\n  "confidenceTreshold": 0.7\n}\n`);
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        // The server part's start-up toast comes before the TUI listens; the TUI part's own comes once it is up.
        const toast = await tui.waitFor((text) => text.includes("opencode-rcm: config problem"), "the config-problem toast", 15_000);
        const flat = toast.replace(/[\s┃]+/g, " ");
        expect(flat).toContain("rcm.jsonc:3: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored");
        await keep("config-problem-toast", toast);
        await tui.submit(ASK.dates, (screen) => screen.includes(replyOf("dates")), 90_000);
        const panel = await tui.waitFor((screen) => sidebar(screen).includes("config problem:"), "the problem in the panel");
        expect(sidebar(panel).replace(/\s+/g, " ")).toContain("unknown option confidenceTreshold (did you mean confidenceThreshold?)");
        await keep("config-problem-panel", sidebar(panel));
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 180_000);
});
