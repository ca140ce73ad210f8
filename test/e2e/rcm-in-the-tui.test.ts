import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createIsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { offlineConfig } from "../../src/lab/harness/opencode-config.js";
import { type ChatRequestBody, messageText, type Responder, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startTui, type TuiSession } from "../support/tmux-tui.js";
import { ASK, EVERYDAY_SCRIPT, replyOf, requestFor } from "./support/everyday-session.js";

// The package as a user lists it: the same entry in opencode.json (server part) and tui.json (TUI part).
const PACKAGE = packageRoot();
// The sidebar starts right of the session's column on a 160-column screen.
const SIDEBAR_COLUMN = 116;
// An xlarge dialog (116 columns) sits in the middle of the 160-column screen.
const DIALOG_COLUMNS = [22, 138] as const;

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

/** A wide dialog's text as one line: the columns it covers, from its title to its ok button. */
function dialogText(screen: string, title: string): string {
  const lines = screen.split("\n");
  const top = lines.findIndex((line) => line.includes(title));
  const rows: string[] = [];
  for (const line of lines.slice(top)) {
    const inside = line.slice(DIALOG_COLUMNS[0], DIALOG_COLUMNS[1]);
    rows.push(inside);
    if (/ ok\s*$/.test(inside)) break;
  }
  return rows.join(" ").replace(/\s+/g, " ");
}

/** Keeps a screen for people to read (RCM_TUI_SCREENS=<dir>). */
async function keep(name: string, text: string): Promise<void> {
  const dir = process.env.RCM_TUI_SCREENS;
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

/** Closes a dialog (Enter on its button, or Escape) and waits until the prompt is back. */
async function closeDialog(tui: TuiSession, title: string, key: "Enter" | "Escape" = "Enter"): Promise<void> {
  await tui.keys(key);
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
      // An earlier session of the project, with one unfinished task: the panel says so in one line.
      const earlier = "ses_dd631d439ffetRWE95heTS17Ki";
      await mkdir(join(temp.path, "state", "sessions"), { recursive: true });
      await copyFile(join(PACKAGE, "fixtures/cli-corpus/state/sessions", `${earlier}.json`), join(temp.path, "state", "sessions", `${earlier}.json`));
      // And a state file torn by hand: skipped, left as it is, and the panel warns of it.
      await writeFile(join(temp.path, "state", "sessions", "ses_torn.json"), "{ torn");
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
        expect(side).toMatch(/ {2}t2 Add a --json flag/);
        expect(side).toMatch(/▶ t3 The install guide/);
        expect(side).toMatch(/current · #3 · latest request/);
        expect(side).toContain("Last request: opened t3");
        expect(side).toMatch(/^ +9\d% sure it is a new task$/m);
        expect(side).toContain("says it starts a new task");
        expect(side).toContain("the model gets only t3's history");
        expect(side).toContain("Last call: kept t3 1");
        expect(side).toContain("left out t1 1, t2 1");
        expect(side.replace(/\s+/g, " ")).toContain("1 unfinished task in earlier sessions: opencode-rcm tasks --all");
        expect(side.replace(/\s+/g, " ")).toContain("1 unreadable state file skipped: opencode-rcm tasks --all names them");
        await keep("panel-three-tasks", side);
        const calls = (await model.requests()).length;

        // Typing /rcm lists the TUI part's menu and the server's /rcm side by side (1.18 cannot hide either): each says what it is.
        await tui.keys("C-u");
        await tui.keys("-l", "/rcm");
        const slash = await tui.waitFor(
          (screen) => screen.includes("opencode-rcm menu:") && screen.includes("with a verb typed after it"),
          "the slash list for /rcm",
        );
        await keep("slash-list-rcm", slash);
        expect(slash).toContain("opencode-rcm for web, desktop, opencode run");
        // The menu is listed first: /rcm and Enter opens it.
        expect(slash.indexOf("opencode-rcm menu:")).toBeLessThan(slash.indexOf("with a verb typed after it"));
        await tui.keys("C-u");
        await tui.keys("Escape");

        const status = await menu(tui, 0, (screen) => screen.includes("/rcm status") && screen.includes("Saved so far"), "/rcm status");
        expect(status).toContain("opencode-rcm is on: mode router, lexical router, sure from 80%.");
        expect(status).toMatch(/\* t3 +current +1 request #3 +latest request +The install guide/);
        // The dialog wraps its lines: fragments that fit on one.
        expect(status).toMatch(/Last request \(#\d+\): new task t3 "The install guide is out of date", 9\d% sure it is new:/);
        expect(dialogText(status, "/rcm status")).toContain("says it starts a new task.");
        await keep("rcm-status", status);
        await closeDialog(tui, "/rcm status");

        const why = await menu(tui, 1, (screen) => screen.includes("/rcm why") && screen.includes("Left out:"), "/rcm why");
        expect(why).toMatch(/Last model call \(mode router, answering request #\d+\): only t3.s history, 9\d% sure it is new\./);
        expect(why).toMatch(/Left out: t1 1, t2 1/);
        await keep("rcm-why", why);
        await closeDialog(tui, "/rcm why");

        const tasks = await menu(tui, 2, (screen) => screen.includes("/rcm tasks") && screen.includes("goal:"), "/rcm tasks");
        expect(tasks).toMatch(/ {2}t1 +suspended +1 request #1 /);
        expect(tasks).toContain("t1 goal: (no record yet)");
        await closeDialog(tui, "/rcm tasks");

        await menu(tui, 3, (screen) => screen.includes("/rcm show: which task?"), "the task list of /rcm show");
        await tui.keys("Enter");
        const show = await tui.waitFor((screen) => screen.includes("/rcm show t1"), "/rcm show t1");
        expect(show).toContain("No memory record yet: memory is off in mode router");
        await closeDialog(tui, "/rcm show t1");

        // /rcm move: the requests by their text (newest first), then what moves, then where; picking t1 moves request 3 at once (the server applies it on the toast).
        const list = await menu(tui, 4, (screen) => screen.includes("/rcm move: which request? (newest first)"), "the move picker");
        expect(list).toMatch(/#3 t3 {2}New task: the install guide is out of date/);
        expect(list).toMatch(/#1 t1 {2}Fix the date parser in src\/dates\.py/);
        // Whose confidence each row shows: the task the request opened or was routed to.
        expect(list).toMatch(/opened t3, 9\d% sure/);
        await keep("rcm-move-picker", list);
        await tui.keys("Enter");
        const what = await tui.waitFor((screen) => screen.includes("/rcm move #3: what moves?"), "what moves");
        expect(what).toContain("only #3");
        await tui.keys("Enter");
        const targets = await tui.waitFor((screen) => screen.includes("/rcm move #3 to…"), "the move targets");
        expect(targets).toMatch(/t1 {2}Fix the date parser/);
        expect(targets).toMatch(/t2 {2}Add a --json flag/);
        expect(targets).toMatch(/new +a new task, titled after the first request/);
        await tui.keys("Enter");
        const moved = await tui.waitFor((screen) => sidebar(screen).includes("Last request: t1, you moved it"), "the panel after the move");
        expect(moved).toContain("/rcm move: request 3 moves from t3 to t1");
        expect(sidebar(moved)).toMatch(/▶ t1 Fix the date parser/);
        expect(sidebar(moved)).toContain("Call before the move: kept t3 1");
        // t3 had one request, now moved: an empty task is listed nowhere.
        expect(sidebar(moved)).not.toMatch(/t3 The install guide/);
        expect(sidebar(moved)).toMatch(/current · #1 #3 · latest request/);
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
        await tui.submit(ASK.rename, (screen) => screen.includes(replyOf("rename")));
        // On again, the request sent while off waits for the next one: the panel says so instead of the older decision.
        const on = await menu(
          tui,
          5,
          (screen) => /RCM · router\s*\n/.test(`${sidebar(screen)}\n`) && !sidebar(screen).includes("OFF") && sidebar(screen).includes("On again"),
          "the panel switched on",
        );
        expect(sidebar(on)).toContain("On again: no decision yet");
        expect(sidebar(on)).not.toContain("Last request:");
        await keep("panel-after-on", on);
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

  it("answers typed /rcm verbs in the TUI with no model turn and nothing stored; three misfiled requests move in one action, their memory with them, and the next one is sure", async () => {
    const repo = join(temp.path, "repo-typed");
    await createGitRepo(repo, {
      "README.md": "# tools\n",
      "src/parser.py": "def parse_date(t):\n    pass\n",
      "src/export.py": "def export_csv(rows):\n    pass\n",
    });
    // The CSV export task's words are in the docs requests: the router files them under t2, surely.
    const say = {
      parser: ["parse_date in src/parser.py accepts 2024-13-45; make it reject impossible months and days.", "src/parser.py"],
      export: ["separate thing: export_csv in src/export.py should quote fields that contain commas.", "src/export.py"],
      export2: ["export_csv should also escape embedded quotes by doubling them", undefined],
      docs1: ["now explain in docs/usage.md how export_csv quotes fields", "docs/usage.md"],
      docs2: ["in usage.md also show an example of the quoting output", undefined],
      docs3: ["and say in usage.md that the delimiter is always a comma", undefined],
      docs4: ["in usage.md also show the --delimiter flag in that example", undefined],
      parser2: ["back to parse_date in src/parser.py: also handle the empty string, it should raise ValueError", "src/parser.py"],
      parser3: ["the date thing should also accept slashes", "src/parser.py"],
    } as const;
    const script = {
      stages: Object.entries(say).map(([id, [when, file]]) => ({
        id,
        when,
        steps: file
          ? [{ toolCalls: [{ name: "write", arguments: { filePath: join(repo, file), content: `# ${id}\n` } }] }, { text: `REPLY-${id}` }]
          : [{ text: `REPLY-${id}` }],
      })),
    };
    const model = await startScriptedModel({ script, logFile: join(temp.path, "model-requests-typed.jsonl") });
    const homeRoot = join(temp.path, "home-typed");
    const stateDir = join(temp.path, "state-typed");
    try {
      const home = await createIsolatedHome({
        root: homeRoot,
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[PACKAGE, { mode: "full", stateDir }]] }),
        tui: { plugin: [PACKAGE] },
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        for (const id of ["parser", "export", "export2", "docs1", "docs2", "docs3"] as const)
          await tui.submit(say[id][0], (screen) => screen.includes(`REPLY-${id}`), 90_000);
        const misfiled = await tui.waitFor(
          (screen) => /▶ t2 export_csv in src\/export/.test(sidebar(screen)) && /current · #2-6 · /.test(sidebar(screen)),
          "the docs requests under t2",
        );
        await keep("panel-misfiled", sidebar(misfiled));
        const calls = (await model.requests()).length;

        // Each typed verb opens what its menu entry opens; nothing reaches the model.
        const why = await tui.submit("/rcm why", (screen) => screen.includes("/rcm why") && screen.includes("Last model call"));
        expect(why).toMatch(/only t2's history/);
        await keep("typed-why", why);
        await closeDialog(tui, "Last model call", "Escape");
        const before = await tui.submit(
          "/rcm show t2",
          (screen) => screen.includes("/rcm show t2") && screen.includes("Asked for") && screen.includes("The text the model gets"),
        );
        expect(dialogText(before, "/rcm show t2")).toContain("usage.md");
        await closeDialog(tui, "Asked for", "Escape");
        const typo = await tui.submit("/rcm stauts", (screen) => screen.includes("/rcm stauts: no such command; did you mean /rcm"));
        // The toast wraps "did you mean /rcm | status?" over two rows.
        expect(typo).toContain("status? (status, why, tasks, show, move");
        await keep("typed-typo", typo);

        // One action moves the three docs requests (4 and every later one) to a new task.
        const moved = await tui.submit(
          "/rcm move 4.. new",
          (screen) => /▶ t3 Explain in docs\/usage/.test(sidebar(screen)) && screen.includes("requests 4, 5 and 6 move from t2 to a new"),
        );
        expect(sidebar(moved)).toMatch(/current · #4-6 · /);
        await keep("panel-after-typed-move", sidebar(moved));
        // t2's record is written again from its own requests: the docs are gone from it.
        const after = await tui.submit(
          "/rcm show t2",
          (screen) => screen.includes("/rcm show t2") && screen.includes("Asked for") && screen.includes("The text the model gets"),
          30_000,
        );
        const flatAfter = dialogText(after, "/rcm show t2");
        expect(flatAfter).toContain("quote fields that contain commas");
        expect(flatAfter).not.toContain("usage.md");
        await keep("typed-show-after-move", after);
        await closeDialog(tui, "Asked for", "Escape");
        expect((await model.requests()).length).toBe(calls);

        // The moved requests are sure evidence: the next docs request goes to t3, and the model gets t3's history.
        await tui.submit(say.docs4[0], (screen) => screen.includes("REPLY-docs4"), 90_000);
        const sure = await tui.waitFor((screen) => /Last request: t3, 9\d% sure/.test(sidebar(screen)), "the next docs request on t3");
        await keep("panel-next-docs-request", sidebar(sure));
        const got = requestFor(await model.requests(), say.docs4[0]);
        for (const id of ["docs1", "docs2", "docs3"] as const) expect(got).toContain(say[id][0]);
        for (const id of ["parser", "export2"] as const) expect(got).not.toContain(say[id][0]);
        // t1's record, as a person reads it, holds every parser request in the user's words (the
        // uncued one too, settled by its edit), without the words that steered back to it, and
        // nothing typed to the plug-in.
        for (const id of ["parser2", "parser3"] as const) await tui.submit(say[id][0], (screen) => screen.includes(`REPLY-${id}`), 90_000);
        const t1 = await tui.submit(
          "/rcm show t1",
          (screen) => screen.includes("Memory record of t1") && screen.includes("Asked for") && screen.includes("The text the model gets"),
          60_000,
        );
        const record = dialogText(t1, "/rcm show t1");
        for (const asked of [
          "reject impossible months and days",
          "also handle the empty string, it should raise ValueError",
          "the date thing should also accept slashes",
        ])
          expect(record).toContain(asked);
        const asks = record.slice(record.indexOf("Asked for"), record.indexOf("Pending"));
        expect(asks).not.toMatch(/back to|\/rcm|show t\d|move 4|stauts/);
        await keep("typed-show-t1", t1);
        await closeDialog(tui, "Asked for", "Escape");
        // Nothing the verbs did was stored in the session: no model request ever carried them.
        for (const request of await model.requests()) expect(JSON.stringify(request.body)).not.toMatch(/\/rcm (why|show|stauts|move)|show t[12]|stauts/);
      } finally {
        await tui.close();
      }
      // A typed verb stops OpenCode's command with one logged failure (1.18 has no other way); nothing else fails.
      // At most one per typed verb (six): OpenCode's log, read after the TUI exits, has twice lacked the last line.
      const log = await readFile(join(homeRoot, "data", "opencode", "log", "opencode.log"), "utf8");
      const errors = log.split("\n").filter((line) => line.includes("level=ERROR"));
      expect(errors.length, errors.join("\n")).toBeGreaterThanOrEqual(5);
      expect(errors.length, errors.join("\n")).toBeLessThanOrEqual(6);
      for (const line of errors)
        expect(line).toContain("CommandAnswered: expected, not a failure: opencode-rcm answered /rcm itself (in the terminal UI's dialog)");
    } finally {
      await model.close();
    }
  }, 420_000);

  it("resumes an earlier session's task from the /rcm menu: session A works on two tasks; in session B the picker lists them, and the panel shows the one picked with its origin", async () => {
    const repo = join(temp.path, "repo-resume");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n", "src/cli.py": "def main():\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests-resume.jsonl") });
    const homeRoot = join(temp.path, "home-resume");
    try {
      const home = await createIsolatedHome({
        root: homeRoot,
        config: offlineConfig({
          modelBaseURL: model.url,
          plugins: [[PACKAGE, { mode: "full", stateDir: join(temp.path, "state-resume"), memory: { updater: "extractive" } }]],
        }),
        tui: { plugin: [PACKAGE] },
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        // Session A: two tasks, each turn ended (its record written).
        await tui.submit(ASK.dates, (screen) => screen.includes(replyOf("dates")), 90_000);
        await tui.submit(ASK.json, (screen) => screen.includes(replyOf("json")), 90_000);
        const a = await tui.waitFor(
          (screen) => /▶ t2 Add a --json flag/.test(sidebar(screen)) && /Memory of t2/.test(sidebar(screen)),
          "session A's two tasks",
        );
        await keep("resume-session-a", sidebar(a));
        // Session B: a new session, and a request unrelated to A's tasks (nothing of them comes in).
        await tui.submit("/new", (screen) => !screen.includes(replyOf("json")), 20_000);
        await tui.submit(ASK.install, (screen) => screen.includes(replyOf("install")), 90_000);
        const b = await tui.waitFor((screen) => sidebar(screen).replace(/\s+/g, " ").includes("2 unfinished tasks in earlier sessions"), "session B's panel");
        expect(sidebar(b)).toMatch(/▶ t1 The install guide/);
        expect(sidebar(b)).not.toContain("Resume t");
        await keep("resume-session-b-before", sidebar(b));
        const first = requestFor(await model.requests(), ASK.install);
        expect(first).not.toContain(ASK.dates.slice(0, 40));
        expect(first).not.toContain(ASK.json.slice(0, 40));
        const calls = (await model.requests()).length;

        // /rcm, the menu's resume…, then the picker: A's two tasks, numbered, most recently active first; pick A's t2.
        const shown = await tui.submit("/rcm", (screen) => screen.includes("resume…") && screen.includes("Search"));
        await keep("resume-menu", shown);
        await tui.keys("-l", "resume");
        await tui.waitFor((screen) => screen.includes("an earlier session's task") && !screen.includes("tasks, last decision"), "the menu filtered to resume");
        await tui.keys("Enter");
        const picker = await tui.waitFor((screen) => screen.includes("/rcm resume: which task?") && /2\. t\d/.test(screen), "the resume picker");
        expect(picker).toMatch(/[12]\. t2 Add a --json flag to the command line/);
        expect(picker).toMatch(/[12]\. t1 Fix the date parser/);
        expect(picker).toMatch(/· \d+ min ago/);
        await keep("resume-picker", picker);
        if (/2\. t2 Add a --json flag/.test(picker)) {
          await tui.keys("Down");
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
        await tui.keys("Enter");
        const resumed = await tui.waitFor(
          (screen) => /▶ t2 Add a --json flag/.test(sidebar(screen)) && /from .* · \d+ min ago · \d+\s+pending/.test(sidebar(screen).replace(/\s+/g, " ")),
          "the panel with the resumed task",
          20_000,
        );
        expect(resumed).toContain("/rcm resume: t2");
        expect(sidebar(resumed)).toMatch(/ {2}t1 The install guide/);
        await keep("resume-panel-after", resumed);
        // Every /rcm so far ran in the TUI: no model request.
        expect((await model.requests()).length).toBe(calls);

        // The next request carries on in t2: its call carries A's record of t2, nothing of A's t1.
        await tui.submit(ASK.jsonTest, (screen) => screen.includes(replyOf("jsonTest")), 90_000);
        const next = requestFor(await model.requests(), ASK.jsonTest);
        expect(next).toContain("goes on from an earlier session");
        expect(next).toContain("--json");
        expect(next).not.toContain(ASK.dates.slice(0, 40));
        const after = await tui.waitFor((screen) => /Last request: t2/.test(sidebar(screen)), "the panel after t2's request");
        await keep("resume-panel-next-request", sidebar(after));
        const why = await tui.submit("/rcm why", (screen) => screen.includes("Last model call") && screen.includes("Carried t2"));
        await keep("resume-why", why);
        await closeDialog(tui, "Last model call", "Escape");
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 300_000);

  it("in mode memory, shows the task's record for a person in the panel and in /rcm show after its first turn, and the model's text on asking", async () => {
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
        const panel = await tui.waitFor((screen) => /Memory of t1: \d+ asks?, \d+ pending/.test(sidebar(screen)), "the record in the panel after one turn");
        // Written after the turn: no call has had it yet. The ask wraps in the narrow sidebar.
        const side = sidebar(panel).replace(/\s+/g, " ");
        expect(side).toContain("no call has used it yet");
        expect(side).toMatch(/• #1 Fix the date parser in src\/ ?dates\./);
        await keep("panel-memory-first-turn", sidebar(panel));
        await menu(tui, 3, (screen) => screen.includes("/rcm show: which task?"), "the task list of /rcm show");
        await tui.keys("Enter");
        // Read once the dialog is drawn to its last line: a capture mid-draw holds only its top.
        const show = await tui.waitFor(
          (screen) => screen.includes("/rcm show t1") && screen.includes("Asked for") && screen.includes("The text the model gets"),
          "/rcm show t1 with its record",
        );
        const flat = dialogText(show, "/rcm show t1");
        expect(flat).not.toContain("No memory record yet");
        expect(flat).toContain('Memory record of t1 "Fix the date parser');
        expect(flat).toContain("#N after an ask: the request it came from, numbered as status and move count them");
        expect(flat).toContain("Fix the date parser in src/dates.py");
        expect(flat).toContain("(#1)");
        expect(flat).toContain("No model call has had this record yet");
        expect(flat).toContain("The text the model gets: /rcm show t1 model");
        expect(flat).not.toContain("rcm-task-memory");
        await keep("rcm-show-first-turn", show);
        await closeDialog(tui, "/rcm show t1");
        // Typed with model: the text the model gets, word for word, under a line that says so.
        const model = await tui.submit("/rcm show t1 model", (screen) => screen.includes("/rcm show t1 model") && screen.includes("rcm-task-memory"));
        expect(dialogText(model, "/rcm show t1 model")).toContain("The text the model gets for t1's record, word for word");
        await keep("rcm-show-model-text", model);
        await closeDialog(tui, "/rcm show t1 model", "Escape");
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 180_000);

  it("on a 50-row screen toasts five config problems with the first one's details, keeps them to one panel line with the decision in view, shows 0.797 as 79.7%, and toasts a fallback only when a second task has history", async () => {
    const repo = join(temp.path, "repo-screen");
    await createGitRepo(repo, { "README.md": "# tools\n" });
    // The model router, answered by the scripted model: how sure each decision is, exactly.
    const say = [
      { text: "Write export_csv in src/export.py for the report rows.", task: "new", confidence: 0.95 },
      { text: "export_csv should quote the fields that contain commas.", task: "t1", confidence: 0.797 },
      { text: "New task: the install guide in docs/install.md is out of date.", task: "new", confidence: 0.95 },
      { text: "export_csv should also escape embedded quotes by doubling them.", task: "t1", confidence: 0.797 },
    ];
    const respond: Responder = ({ body }) => {
      const request = /<request>\n?([\s\S]*?)\n?<\/request>/
        .exec((body as ChatRequestBody).messages.map((message) => messageText(message.content)).join("\n"))?.[1]
        ?.trim();
      const routed = say.find((item) => item.text === request);
      if (routed)
        return {
          text: JSON.stringify({
            task: routed.task,
            title: "",
            confidence: routed.confidence,
            related: [],
            shared: false,
            reason: "the scripted router says so",
          }),
        };
      const last = messageText((body as ChatRequestBody).messages.findLast((message) => message.role === "user")?.content);
      return { text: `REPLY-${say.findIndex((item) => last.includes(item.text))}: done.` };
    };
    const model = await startScriptedModel({ script: respond, logFile: join(temp.path, "model-requests-screen.jsonl") });
    const homeRoot = join(temp.path, "home-screen");
    try {
      const home = await createIsolatedHome({
        root: homeRoot,
        config: offlineConfig({
          modelBaseURL: model.url,
          plugins: [[PACKAGE, { mode: "router", router: "model", stateDir: join(temp.path, "state-screen"), aux: { timeoutMs: 5000 } }]],
        }),
        tui: { plugin: [PACKAGE] },
      });
      await writeFile(
        join(home.configDir, "rcm.jsonc"),
        `{\n  "confidenceTreshold": 0.7,\n  "notfy": "off",\n  "fallback": "sometimes",\n  "notify": 5,\n  "modee": "full"\n}\n`,
      );
      const tui = await startTui({ directory: repo, home, modelName: "scripted", rows: 50 });
      try {
        // The server part's start-up toast comes before the TUI listens; the TUI part's own comes once it is up, with the details.
        const toast = await tui.waitFor((text) => text.includes("opencode-rcm: 5 config problems"), "the config-problems toast", 20_000);
        const details = toast.replace(/[\s┃]+/g, " ");
        expect(details).toContain("rcm.jsonc:2: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored");
        expect(details).toContain("rcm.jsonc:6: modee (did you mean mode?); ignored");
        await keep("config-problems-toast", toast);
        await tui.submit(say[0]?.text ?? "", (screen) => screen.includes("REPLY-0"), 60_000);
        const unsure = await tui.submit(
          say[1]?.text ?? "",
          (screen) => screen.includes("REPLY-1") && /Last request: t1, 79\.7% sure/.test(sidebar(screen)) && /in 2 calls/.test(sidebar(screen)),
          60_000,
        );
        const side = sidebar(unsure);
        // One line for the five problems; the decision, the last call and the savings below it on the 50-row screen.
        expect(
          side
            .split("\n")
            .filter((line) => line.includes("config problem"))
            .map((line) => line.trim()),
        ).toEqual(["5 config problems: /rcm status"]);
        expect(side).toContain("Last request: t1, 79.7% sure");
        expect(side).toMatch(/Last call: full history, kept t1 2/);
        expect(side).toMatch(/Saved ~\d+ tokens in \d+ calls/);
        expect(side).not.toMatch(/under 80% sure.*\b80% sure/);
        // One task: the full history is t1's, so no fallback toast.
        expect(unsure).not.toContain("RCM: full history");
        expect(unsure).not.toContain("TUI part not loaded");
        await keep("panel-five-problems-0797-one-task", side);
        await keep("screen-one-task-fallback-no-toast", unsure);
        await tui.submit(say[2]?.text ?? "", (screen) => screen.includes("REPLY-2"), 60_000);
        const fallback = await tui.submit(say[3]?.text ?? "", (screen) => screen.includes("REPLY-3") && screen.includes("RCM: full history"), 60_000);
        const flat = fallback.replace(/[\s┃]+/g, " ");
        expect(flat).toContain("79.7% sure, under 80%");
        expect(flat).toContain("Not t1? /rcm move t2 (or new)");
        await keep("screen-0797-fallback-toast", fallback);
        const status = await tui.submit("/rcm status", (screen) => screen.includes("Config problems (5"), 30_000);
        await keep("rcm-status-problems", status);
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 180_000);

  it("says on screen and in the log, once, when tui.json does not list the TUI part", async () => {
    const repo = join(temp.path, "repo-no-tui");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests-no-tui.jsonl") });
    const homeRoot = join(temp.path, "home-no-tui");
    try {
      const home = await createIsolatedHome({
        root: homeRoot,
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[PACKAGE, { mode: "router", stateDir: join(temp.path, "state-no-tui") }]] }),
        tui: {},
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted", rows: 50 });
      try {
        await tui.submit(ASK.dates, (screen) => screen.includes(replyOf("dates")), 60_000);
        const shown = await tui
          .waitFor((screen) => screen.includes("TUI part not loaded"), "the TUI-part-missing toast", 15_000)
          .catch(async (error: unknown) => {
            await keep("debug-no-tui-log", await readFile(join(homeRoot, "data", "opencode", "log", "opencode.log"), "utf8"));
            throw error;
          });
        // The toast sits over the session's column and the sidebar: its lines, one by one.
        expect(shown).toContain("opencode-rcm: TUI part not loaded");
        expect(shown).toContain("No task panel and no /rcm: tui.json does not list");
        expect(shown).toContain(`{ "plugin": ["${PACKAGE}"] }`);
        expect(shown).toContain("then restart OpenCode. Until then: /rcm-text status");
        expect(sidebar(shown)).not.toContain("RCM ·");
        await keep("screen-tui-part-missing", shown);
        await tui.keys("Escape");
        await tui.submit(ASK.json, (screen) => screen.includes(replyOf("json")) && !screen.includes("TUI part not loaded"), 60_000);
        // OpenCode writes its log behind the screen: wait for the line before the TUI is closed (a close can cut an unwritten line).
        const logFile = join(homeRoot, "data", "opencode", "log", "opencode.log");
        for (let tries = 0; tries < 100 && !(await readFile(logFile, "utf8").catch(() => "")).includes("TUI part not loaded"); tries += 1)
          await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await tui.close();
      }
      const log = await readFile(join(homeRoot, "data", "opencode", "log", "opencode.log"), "utf8");
      await keep(
        "log-tui-part-missing",
        log
          .split("\n")
          .filter((line) => line.includes("TUI part"))
          .join("\n"),
      );
      expect(log.split("\n").filter((line) => line.includes("TUI part not loaded"))).toHaveLength(1);
    } finally {
      await model.close();
    }
  }, 120_000);
});
