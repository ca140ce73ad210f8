import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createOpencode2Home, opencode2Binary, opencode2Config } from "../../src/lab/harness/opencode-2-server.js";
import { type ScriptedModel, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { liveScreenMarkers } from "../../src/plugin/store/screen-markers.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startTui, type TuiSession } from "../support/tmux-tui.js";
import { opencode2Responder } from "./support/opencode-2.js";

// The plug-in's TUI part in the real OpenCode 2.0.15 TUI under tmux: listed once in `plugins`
// (the package directory, as a V2 user names it), 2.0.15 loads its tui.js beside server.js.

const A1 = "Add textkit/slugify.py with a slugify(text) function that lowercases text and joins words with hyphens.";
const B1 = "The CSV exporter in exporters/csv_export.py must quote fields that contain commas; right now `export_rows` writes them raw.";
const A_REPLY = "Added slugify() in textkit/slugify.py.";
const B_REPLY = "export_rows quotes fields with commas now.";
const UNRELATED = "Write a short CONTRIBUTING.md that says how to run the tests.";
// The sidebar starts right of the session's column on a 160-column screen.
const SIDEBAR_COLUMN = 118;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let model: ScriptedModel;
beforeAll(async () => {
  temp = await makeTempDir("rcm-v2-tui");
  model = await startScriptedModel({
    script: opencode2Responder({
      stages: [
        { id: "a1", when: A1, steps: [{ text: A_REPLY }] },
        { id: "b1", when: B1, steps: [{ text: B_REPLY }] },
      ],
      fallback: { text: "Done." },
    }),
    logFile: join(temp.path, "model-requests.jsonl"),
  });
});
afterAll(async () => {
  await model?.close();
  await temp?.remove();
});

/** The sidebar's text, right-trimmed. */
function sidebar(screen: string): string {
  return screen
    .split("\n")
    .map((line) => line.slice(SIDEBAR_COLUMN).trimEnd())
    .filter((line) => line !== "")
    .join("\n");
}

/** Closes a dialog (Enter on its button) and waits until it is gone. */
async function closeDialog(tui: TuiSession, title: string): Promise<void> {
  await tui.keys("Enter");
  await tui.waitFor((screen) => !screen.includes(title), `${title} to close`, 5_000);
}

/** Keeps a screen for people to read (RCM_TUI_SCREENS=<dir>). */
async function keep(name: string, text: string): Promise<void> {
  const dir = process.env["RCM_TUI_SCREENS"];
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `v2-${name}.txt`), `${text.replace(/\s+$/gm, "")}\n`);
}

/**
 * Types `/rcm <words>` and sends it. 2.0.15's slash list takes the first Enter to complete the
 * command (it inserts "/rcm "), so Enter is pressed again while the prompt still holds the line.
 */
async function rcm(tui: TuiSession, words: string, done: (screen: string) => boolean, what: string): Promise<string> {
  const line = words === "" ? "/rcm" : `/rcm ${words}`;
  await tui.keys("C-u");
  await tui.keys("-l", line);
  await tui.waitFor((screen) => screen.includes(line), `the prompt to read ${line}`, 10_000);
  for (let press = 0; press < 3; press += 1) {
    await tui.keys("Enter");
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline) {
      const screen = await tui.screen();
      if (done(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return tui.waitFor(done, what, 10_000);
}

/** The 2.0.15 TUI under tmux on a new repository (slugify, a CSV exporter), the plug-in loaded with `options` and a state dir under `root`. */
async function v2Tui(root: string, options: Record<string, unknown>): Promise<{ tui: TuiSession; stateDir: string }> {
  const stateDir = join(root, "state");
  const project = join(root, "repo");
  await createGitRepo(project, {
    "textkit/slugify.py": "def slugify(text):\n    return text\n",
    "exporters/csv_export.py": "def export_rows(rows):\n    return rows\n",
  });
  const home = await createOpencode2Home({
    root: join(root, "home"),
    config: opencode2Config({ modelBaseURL: model.url, plugins: [{ package: packageRoot(), options: { ...options, stateDir } }] }),
  });
  const tui = await startTui({ directory: project, home, modelName: "scripted", command: [opencode2Binary(), "--standalone"], panelBesidePrompt: true });
  return { tui, stateDir };
}

describe("opencode-rcm's TUI part in OpenCode 2.0.15 (tmux)", () => {
  it("shows the task panel, a routing toast, the /rcm menu and typed verbs, and moves a request picked in the menu", async () => {
    const root = join(temp.path, "tui");
    const { tui, stateDir } = await v2Tui(root, { mode: "full", router: "lexical" });
    try {
      await tui.submit(A1, (screen) => screen.includes(A_REPLY), 60_000);
      const second = await tui.submit(B1, (screen) => screen.includes(B_REPLY) && /RCM: (new task t2|full history)/.test(screen), 60_000);
      await keep("toast-new-task", second);
      const panel = await tui.waitFor((screen) => /▶ t2/.test(sidebar(screen)), "the panel with two tasks");
      await keep("panel-two-tasks", sidebar(panel));
      const side = sidebar(panel);
      expect(side).toContain("RCM · full");
      expect(side).toMatch(/ {2}t1 Add textkit\/slugify\.py/);
      expect(side).toMatch(/▶ t2 The CSV exporter/);
      expect(side).toContain("Last request: opened t2");
      expect(side).toContain("Last call: full history, kept t1 1,");
      // Where 1.18's server part shows a toast (an unsure guess that changed what the model gets), the TUI part shows it.
      expect(second).toContain("RCM: full history");
      expect(second).toContain("Part of an earlier task? /rcm move t1");
      // The TUI names the session it shows for the CLI (`opencode-rcm status` answers about it), as on 1.18.
      const markers = await liveScreenMarkers(stateDir);
      expect(markers).toHaveLength(1);
      expect(existsSync(sessionStatePath(stateDir, markers[0]?.sessionID ?? "none"))).toBe(true);
      const calls = (await model.requests()).length;

      // `/rcm`: the menu of verbs, in the TUI; `why` (the second entry) answers in a dialog.
      const menu = await rcm(tui, "", (screen) => screen.includes("move…") && screen.includes("split…"), "the /rcm menu");
      await keep("rcm-menu", menu);
      expect(menu).toMatch(/status +tasks, last decision, savings/);
      await tui.keys("Down");
      await new Promise((resolve) => setTimeout(resolve, 150));
      await tui.keys("Enter");
      const why = await tui.waitFor((screen) => screen.includes("/rcm why") && screen.includes("Last model call"), "/rcm why from the menu");
      await keep("rcm-why-menu", why);
      expect(why).toMatch(/Last model call \(mode full, answering request #2\)/);
      await closeDialog(tui, "/rcm why");

      // A typed verb runs the TUI's /rcm with its words, before the server's command of that name.
      const tasks = await rcm(tui, "tasks", (screen) => screen.includes("/rcm tasks") && screen.includes("goal:"), "a typed /rcm tasks");
      await keep("rcm-tasks-typed", tasks);
      expect(tasks).toMatch(/t1 +suspended +1 request #1/);
      await closeDialog(tui, "/rcm tasks");
      const typedWhy = await rcm(tui, "why", (screen) => screen.includes("/rcm why") && screen.includes("Last model call"), "a typed /rcm why");
      expect(typedWhy).toContain("full history");
      await closeDialog(tui, "/rcm why");

      // /rcm move from the menu: request #2 (newest first), only it, to t1; the server applies it at once.
      await rcm(tui, "", (screen) => screen.includes("move…") && screen.includes("split…"), "the /rcm menu");
      for (let step = 0; step < 4; step += 1) {
        await tui.keys("Down");
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await tui.keys("Enter");
      const picker = await tui.waitFor((screen) => screen.includes("/rcm move: which request? (newest first)") && screen.includes("#1 t1"), "the move picker");
      await keep("rcm-move-picker", picker);
      expect(picker).toMatch(/#2 t2 {2}The CSV exporter in exporters\/csv_export\.py/);
      await tui.keys("Enter");
      await tui.waitFor((screen) => screen.includes("/rcm move #2: what moves?") && screen.includes("only #2"), "what moves");
      await tui.keys("Enter");
      const targets = await tui.waitFor((screen) => screen.includes("/rcm move #2 to…"), "the move targets");
      expect(targets).toMatch(/t1 {2}Add textkit\/slugify\.py/);
      await tui.keys("Enter");
      const moved = await tui.waitFor((screen) => sidebar(screen).includes("you moved it"), "the panel after the move");
      await keep("panel-after-move", moved);
      expect(sidebar(moved)).toMatch(/▶ t1 Add textkit\/slugify\.py/);
      expect(sidebar(moved)).not.toMatch(/t2 The CSV exporter/);
      expect(moved).toContain("/rcm move: request 2 moves from t2 to t1");

      // Clients without the TUI part still have the server's /rcm-text, answered in the transcript.
      const text = await tui.submit("/rcm-text tasks", (screen) => screen.includes("opencode-rcm: /rcm-text tasks") && screen.includes("Tasks ("));
      expect(text).toMatch(/\* t1 +current +2 requests/);
      // Every /rcm ran with no model request.
      expect((await model.requests()).length).toBe(calls);
      // A TUI's server keeps no plug-in's stderr: the log file in the state root has the server part's lines.
      const log = await readFile(join(root, "home", "data", "opencode", "rcm", "opencode-rcm.log"), "utf8");
      expect(log).toMatch(/Z opencode-rcm info routed to t1 \(new\)/);
      expect(log).toContain("opencode-rcm info /rcm-text move 2 t1 answered without a model call");
      expect(log).not.toContain("warn tui:");
    } finally {
      await tui.close();
    }
  }, 120_000);

  it("lists an ended session's unfinished tasks in a new session and resumes one typed /rcm resume, with its origin in the panel", async () => {
    const { tui } = await v2Tui(join(temp.path, "tui-resume"), { mode: "full" });
    try {
      // Session A: two tasks; then a new session (2.0.15 opens it at its first request) with an unrelated one.
      await tui.submit(A1, (screen) => screen.includes(A_REPLY), 60_000);
      await tui.submit(B1, (screen) => screen.includes(B_REPLY), 60_000);
      await tui.waitFor((screen) => /▶ t2/.test(sidebar(screen)), "session A's two tasks");
      await tui.submit("/new", (screen) => !screen.includes(B_REPLY), 20_000);
      await tui.submit(UNRELATED, (screen) => screen.includes("Done.") && /▶ t1/.test(sidebar(screen)), 60_000);
      const calls = (await model.requests()).length;
      const listed = await rcm(tui, "resume", (screen) => screen.includes("Unfinished tasks of earlier sessions"), "the typed /rcm resume list");
      await keep("rcm-resume-list", listed);
      expect(listed).toMatch(/1\. t\d (The CSV exporter|Add textkit)/);
      expect(listed).toMatch(/2\. t\d (The CSV exporter|Add textkit)/);
      await closeDialog(tui, "Unfinished tasks of earlier sessions");
      const first = /1\. (t\d)/.exec(listed)?.[1] ?? "t2";
      const resumed = await rcm(
        tui,
        "resume 1",
        (screen) => /from .* · \d+ min ago/.test(sidebar(screen).replace(/\s+/g, " ")),
        "the panel with the resumed task",
      );
      await keep("rcm-resume-panel", sidebar(resumed));
      expect(sidebar(resumed)).toMatch(new RegExp(`▶ ${first === "t1" ? "t\\d" : first} `));
      // No model request for any of it.
      expect((await model.requests()).length).toBe(calls);
    } finally {
      await tui.close();
    }
  }, 120_000);

  it("toasts the options' problems when the TUI starts, with the file and line of each", async () => {
    const root = join(temp.path, "problems");
    const project = join(root, "repo");
    await createGitRepo(project, { "README.md": "# tools\n" });
    const home = await createOpencode2Home({
      root: join(root, "home"),
      config: opencode2Config({ modelBaseURL: model.url, plugins: [{ package: packageRoot(), options: { stateDir: join(root, "state") } }] }),
    });
    await writeFile(join(home.env["XDG_CONFIG_HOME"] ?? "", "opencode", "rcm.jsonc"), `{\n  "confidenceTreshold": 0.7,\n  "modee": "full"\n}\n`);
    const tui = await startTui({ directory: project, home, modelName: "scripted", command: [opencode2Binary(), "--standalone"], panelBesidePrompt: true });
    try {
      const toast = await tui.waitFor((screen) => screen.includes("opencode-rcm: 2 config problems"), "the config-problems toast", 20_000);
      await keep("config-problems-toast", toast);
      const details = toast.replace(/[\s┃]+/g, " ");
      expect(details).toContain("rcm.jsonc:2: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored");
    } finally {
      await tui.close();
    }
  }, 60_000);
});
