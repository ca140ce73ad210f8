import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createOpencode2Home, opencode2Binary, opencode2Config } from "../../src/lab/harness/opencode-2-server.js";
import { type ScriptedModel, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startTui, type TuiSession } from "../support/tmux-tui.js";
import { opencode2Responder } from "./support/opencode-2.js";

// The plug-in's TUI part in the real OpenCode 2.0.15 TUI under tmux: listed once in `plugins`
// (the package directory, as a V2 user names it), 2.0.15 loads its tui.js beside server.js.

const A1 = "Add textkit/slugify.py with a slugify(text) function that lowercases text and joins words with hyphens.";
const B1 = "The CSV exporter in exporters/csv_export.py must quote fields that contain commas; right now `export_rows` writes them raw.";
const A_REPLY = "Added slugify() in textkit/slugify.py.";
const B_REPLY = "export_rows quotes fields with commas now.";
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

describe("opencode-rcm's TUI part in OpenCode 2.0.15 (tmux)", () => {
  it("shows the task panel, a routing toast, the /rcm menu and typed verbs, and moves a request picked in the menu", async () => {
    const root = join(temp.path, "tui");
    const project = join(root, "repo");
    await createGitRepo(project, {
      "textkit/slugify.py": "def slugify(text):\n    return text\n",
      "exporters/csv_export.py": "def export_rows(rows):\n    return rows\n",
    });
    const home = await createOpencode2Home({
      root: join(root, "home"),
      config: opencode2Config({ modelBaseURL: model.url, plugins: [{ package: packageRoot(), options: { mode: "full", router: "lexical", stateDir: join(root, "state") } }] }),
    });
    const tui = await startTui({ directory: project, home, modelName: "scripted", command: [opencode2Binary(), "--standalone"], panelBesidePrompt: true });
    try {
      await tui.submit(A1, (screen) => screen.includes(A_REPLY), 60_000);
      const second = await tui.submit(B1, (screen) => screen.includes(B_REPLY) && /RCM: (new task t2|full history)/.test(screen), 60_000);
      await keep("toast-new-task", second);
      const panel = await tui.waitFor((screen) => /▶ t2/.test(sidebar(screen)), "the panel with two tasks");
      await keep("panel-two-tasks", panel);
      console.log(panel);
      const calls = (await model.requests()).length;
      const menu = await rcm(tui, "", (screen) => screen.includes("move…") && screen.includes("why"), "the /rcm menu");
      await keep("rcm-menu", menu);
      console.log(menu);
      expect((await model.requests()).length).toBe(calls);
    } finally {
      await tui.close();
    }
  }, 120_000);
});
