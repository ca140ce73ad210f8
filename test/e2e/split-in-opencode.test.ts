import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveCommand } from "../../src/cli/sessions/session-verbs.js";
import { builtEntry, packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createIsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { offlineConfig } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { INTENT_TOAST_TITLE, postIntent } from "../../src/plugin/store/session-inbox.js";
import { recordEvents } from "../support/event-recorder.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startTui } from "../support/tmux-tui.js";
import { ASK, answers, EVERYDAY_SCRIPT, replyOf, requestFor } from "./support/everyday-session.js";
import { EXCHANGE_MARKS, firstRequestFor, fourTaskScript, REPO_FILES, REQUESTS, readState, waitForState } from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-split-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("/rcm split in the real OpenCode", () => {
  it("opens a session for t1 whose first model call carries t1's record and requests (not t2's), and the old session routes no more to t1", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, REPO_FILES);
    const stateDir = join(temp.path, "state");
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: fourTaskScript(repo), plugins: [[PLUGIN, { mode: "memory", stateDir }]] },
      async ({ client, model, prompt, messages }) => {
        const events = await recordEvents(client);
        const oldID = (await client.session.create({ title: "Tools work" }, { throwOnError: true })).data.id;
        await prompt(oldID, REQUESTS.A1);
        await waitForState(stateDir, oldID, (state) => state.records.t1 !== undefined, "t1's record");
        await prompt(oldID, REQUESTS.B1);
        await waitForState(stateDir, oldID, (state) => state.records.t2 !== undefined, "t2's record");

        const before = (await model.requests()).length;
        await client.session.command({ sessionID: oldID, command: "rcm-text", arguments: "split t1" });
        expect((await model.requests()).length).toBe(before);
        const answer = answers(await messages(oldID)).at(-1) ?? "";
        const newID = answer.match(/into session (ses_\w+)/)?.[1];
        if (!newID) throw new Error(`no new session in the answer: ${answer}`);
        expect(answer).toMatch(
          /^\/rcm-text split t1\nSplit t1 ".*" out into session ses_\w+ \(".* \(split from Tools work\)"\): its first model call gets its memory record and its request\./,
        );

        // The old session's ledger names the new session; its views show it; the TUI was told to show it.
        expect((await readState(stateDir, oldID))?.ledger.tasks.map((task) => task.split?.session)).toEqual([newID, undefined]);
        await client.session.command({ sessionID: oldID, command: "rcm-text", arguments: "status" });
        expect(answers(await messages(oldID)).at(-1)).toMatch(new RegExp(`t1 +split → ${newID}`));
        await events.waitFor((event) => event.type === "tui.session.select" && event.properties.sessionID === newID);
        // A move into the split task is refused, naming the task, its session and why: here and from a shell (issue 48).
        const refused = `t1 is split out into session ${newID}: no model call in this session gets its history, so a request moved there would be lost (move it to t2, new, or continue t1 in ${newID})`;
        await client.session.command({ sessionID: oldID, command: "rcm-text", arguments: "move 2 t1" });
        expect(answers(await messages(oldID)).at(-1)).toContain(`opencode-rcm: /rcm-text move: ${refused}`);
        await expect(moveCommand({ directory: repo, stateDir, env: {} }, oldID, ["2", "t1"])).rejects.toThrow(refused);
        expect((await readState(stateDir, oldID))?.ledger.decisions[(await readState(stateDir, oldID))?.ledger.order[1] ?? ""]?.task).toBe("t2");

        // The new session: titled after the task, in the same directory, one seed message and no reply yet.
        const created = (await client.session.get({ sessionID: newID }, { throwOnError: true })).data;
        expect(created.title).toMatch(/ \(split from Tools work\)$/);
        expect(created.directory).toBe((await client.session.get({ sessionID: oldID }, { throwOnError: true })).data.directory);
        const seeded = await messages(newID);
        expect(seeded.map((message) => message.info.role)).toEqual(["user"]);
        expect(seeded[0]?.parts.map((part) => (part.type === "text" ? [part.synthetic ?? false, part.ignored ?? false] : part.type))).toEqual([
          [true, false],
          [false, true],
        ]);
        expect((await model.requests()).length).toBe(before);

        // Its first model call carries t1's record and request, and nothing of t2.
        await prompt(newID, REQUESTS.A2);
        const first = JSON.stringify(firstRequestFor(await model.requests(), REQUESTS.A2));
        expect(first).toContain(`This session continues task t1`);
        expect(first).toContain(`of OpenCode session \\"Tools work\\" (${oldID})`);
        expect(first).toContain('<rcm-task-memory task=\\"t1\\">');
        expect(first).toContain(REQUESTS.A1);
        for (const other of [REQUESTS.B1, EXCHANGE_MARKS.B1, 'task=\\"t2\\"', "opencode-rcm: t1"]) expect(first).not.toContain(other);

        // Back in the old session, a request about t1 goes elsewhere.
        await prompt(oldID, REQUESTS.A3);
        const old = await readState(stateDir, oldID);
        const last = old?.ledger.order.at(-1);
        expect(last && old?.ledger.decisions[last]?.task).not.toBe("t1");

        // The TUI's path: an intent in the inbox, announced with a toast, applied by the server at once.
        await postIntent(stateDir, oldID, { kind: "split", task: "t2" });
        await client.tui.showToast({ title: INTENT_TOAST_TITLE, message: "/rcm split t2", variant: "success" });
        const split = await waitForState(stateDir, oldID, (state) => state.ledger.tasks[1]?.split !== undefined, "t2 split from the inbox");
        const thirdID = split.ledger.tasks[1]?.split?.session ?? "";
        expect(thirdID).not.toBe(newID);
        const seed = (await messages(thirdID))[0]?.parts.flatMap((part) => (part.type === "text" && part.synthetic ? [part.text] : [])).join("") ?? "";
        expect(seed).toContain(REQUESTS.B1);
        expect(seed).not.toContain(REQUESTS.A1);
        events.close();
      },
    );
  });

  it("in the TUI, /rcm split t1 opens t1's session on screen, and its first request there carries t1's request", async () => {
    const repo = join(temp.path, "repo-tui");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "model-requests-tui.jsonl") });
    const stateDir = join(temp.path, "state-tui");
    try {
      const home = await createIsolatedHome({
        root: join(temp.path, "home-tui"),
        config: offlineConfig({ modelBaseURL: model.url, plugins: [[packageRoot(), { mode: "router", stateDir }]] }),
        tui: { plugin: [packageRoot()] },
      });
      const tui = await startTui({ directory: repo, home, modelName: "scripted" });
      try {
        for (const key of ["dates", "json"] as const) await tui.submit(ASK[key], (screen) => screen.includes(replyOf(key)), 90_000);
        // Typed: the TUI posts the split, the server opens the session and tells the TUI to show it.
        const shown = await tui.submit(
          "/rcm split t1",
          (screen) => flat(screen).includes('opencode-rcm: t1 "Fix the date parser') && sidebar(screen).includes("No tasks yet"),
          30_000,
        );
        // The new session's transcript: the seed's note alone, none of the old session's turns.
        expect(shown).not.toContain(replyOf("dates"));
        await tui.submit(ASK.datesAgain, (screen) => screen.includes(replyOf("datesAgain")), 90_000);
        const first = requestFor(await model.requests(), ASK.datesAgain);
        expect(first).toContain("This session continues task t1");
        expect(first).toContain(ASK.dates);
        expect(first).not.toContain(ASK.json);
        // The old session's ledger names the new session, where the TUI sent that request.
        const ids = (await readdir(join(stateDir, "sessions"))).filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -".json".length));
        const states = await Promise.all(ids.map((id) => readState(stateDir, id)));
        const old = states.find((state) => state?.ledger.tasks.length === 2);
        expect(old?.ledger.tasks.map((task) => task.split !== undefined)).toEqual([true, false]);
        const fresh = states.find((state) => state?.sessionID === old?.ledger.tasks[0]?.split?.session);
        expect(fresh?.ledger.tasks.map((task) => task.id)).toEqual(["t1"]);
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 240_000);
});

// The sidebar starts right of the session's column on a 160-column screen.
const SIDEBAR_COLUMN = 116;

function sidebar(screen: string): string {
  return screen
    .split("\n")
    .map((line) => line.slice(SIDEBAR_COLUMN).trimEnd())
    .filter((line) => line !== "")
    .join("\n");
}

/** The session's column as one line: wrapped text reads whole. */
function flat(screen: string): string {
  return screen
    .split("\n")
    .map((line) => line.slice(0, SIDEBAR_COLUMN))
    .join(" ")
    .replace(/[\s┃]+/g, " ");
}
