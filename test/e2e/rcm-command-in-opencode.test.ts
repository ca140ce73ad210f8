import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { prepareConfigDir } from "../../src/lab/harness/isolated-home.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { SessionStateSchema } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { type RecordedEvent, recordEvents } from "../support/event-recorder.js";
import { makeTempDir } from "../support/temp-dir.js";
import { ASK, answers, EVERYDAY_SCRIPT, requestFor } from "./support/everyday-session.js";

const PLUGIN = builtEntry("./server");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-command-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

const toasts = (events: readonly RecordedEvent[]) =>
  events.filter((event) => event.type === "tui.toast.show").map((event) => event.properties as { title: string; message: string; variant: string });

describe("/rcm-text (the server's command, for clients without the TUI part) and toasts in the real OpenCode", () => {
  it("answers /rcm-text without a model request, moves a request on the user's word, switches off and on, and toasts decisions", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    const runDir = join(temp.path, "run");
    const stateDir = join(temp.path, "state");
    await withScriptedOpencode(
      { runDir, directory: repo, script: EVERYDAY_SCRIPT, plugins: [[join(PLUGIN), { mode: "router", stateDir }]] },
      async ({ client, model, prompt, messages }) => {
        const events = await recordEvents(client);
        const session = await client.session.create({}, { throwOnError: true });
        const sessionID = session.data.id;
        const bodies: string[] = [];
        const command = async (args: string): Promise<string> => {
          const before = (await model.requests()).length;
          const result = await client.session.command({ sessionID, command: "rcm-text", arguments: args });
          // OpenCode 1.18 has no "handled" flag: the plug-in stops the command with an error.
          expect(result.response?.status).toBe(500);
          bodies.push(JSON.stringify(result.error));
          expect((await model.requests()).length).toBe(before);
          const answer = answers(await messages(sessionID)).at(-1);
          if (answer === undefined) throw new Error(`no answer to /rcm-text ${args}`);
          return answer;
        };

        for (const text of [ASK.dates, ASK.json, ASK.installShort, ASK.both]) await prompt(sessionID, text);
        // The toast travels the event stream, which may lag the prompt's answer.
        const unsure = (
          await events.waitFor((event) => event.type === "tui.toast.show" && (event.properties as { title?: string }).title === "RCM: full history")
        ).properties;
        expect(toasts(events.events).at(-1)).toEqual(unsure);
        expect(unsure).toMatchObject({
          title: "RCM: full history",
          variant: "warning",
          message: expect.stringMatching(/^\d+% sure, under 80%\. Best guess t\d: ".*"\nNot t\d\? \/rcm-text move <task> \(or new\)$/),
        });
        expect(await command("move new")).toMatch(
          /^\/rcm-text move new\nMoved request \d+ from t\d to t4 \(new task\) "Both src\/dates\.py.*"\. Nothing else moved\./,
        );
        await prompt(sessionID, ASK.datesAgain);
        const status = await command("status");
        expect(status).toMatch(/^\/rcm-text status\nopencode-rcm is on: mode router, lexical router, sure from 80%\./);
        expect(status).toMatch(/\* t1 +current +2 requests/);
        expect(status).toMatch(/ {2}t2 +suspended +1 request #2 +3 requests ago/);
        expect(status).toMatch(/ {2}t3 +suspended +1 request/);
        expect(status).toMatch(/ {2}t4 +suspended +1 request/);
        expect(status).toMatch(/Last request \(#\d+\): t1 "Fix the date parser.*", \d+% sure: /);
        expect(status).toMatch(/Saved so far: ~[1-9][\d.]*k? tokens kept out of \d+ model calls \(routing ~[1-9]/);

        const why = await command("why");
        expect(why).toMatch(/only t1's history, \d+% sure\./);
        expect(why).toMatch(/Left out: t2 1, t3 1, t4 1/);

        // The answers never reach the model, and the session goes on normally.
        const moved = await command("move t2");
        expect(moved).toMatch(/Moved request \d+ from t1 to t2/);
        await prompt(sessionID, ASK.jsonTest);
        const all = await model.requests();
        const followUp = requestFor(all, ASK.jsonTest);
        expect(followUp).toContain(ASK.json.slice(0, 40));
        expect(followUp).toContain(ASK.datesAgain.slice(0, 40));
        for (const hidden of [ASK.dates, ASK.installShort, ASK.both]) expect(followUp).not.toContain(hidden.slice(0, 40));
        for (const request of all) expect(JSON.stringify(request.body)).not.toContain("opencode-rcm:");
        expect(await command("status")).toMatch(/\* t2 +current +3 requests/);
        // Stored as the user's decisions, with the ledger.
        const state = SessionStateSchema.parse(JSON.parse(await readFile(sessionStatePath(stateDir, sessionID), "utf8")).data);
        const userDecisions = Object.values(state.ledger.decisions).filter((entry) => entry.router === "user");
        expect(userDecisions.map((entry) => [entry.task, entry.opened, entry.reason, entry.confidence])).toEqual([
          ["t4", true, "user", 1],
          ["t2", false, "user", 1],
        ]);

        expect(await command("off")).toContain("off for this session");
        await prompt(sessionID, ASK.rename);
        const native = requestFor(await model.requests(), ASK.rename);
        for (const text of [ASK.dates, ASK.json, ASK.installShort, ASK.both, ASK.datesAgain, ASK.jsonTest]) expect(native).toContain(text.slice(0, 40));
        expect(await command("status")).toContain("opencode-rcm is OFF for this session");
        expect(await command("on")).toContain("on again");
        // The request sent while off is routed, before the next one, once it is on again: none stays unassigned.
        await prompt(sessionID, ASK.toc);
        const back = SessionStateSchema.parse(JSON.parse(await readFile(sessionStatePath(stateDir, sessionID), "utf8")).data);
        const routedUsers = (await messages(sessionID)).filter(
          (message) => message.info.role === "user" && message.parts.some((part) => part.type === "text" && !part.ignored && !part.synthetic),
        );
        expect(back.ledger.order).toEqual(routedUsers.map((message) => message.info.id));
        expect(back.whileOff).toBeUndefined();
        expect(back.ledger.decisions[back.ledger.order.at(-2) ?? ""]?.task).toBe("t1");
        expect(await command("bogus")).toContain('unknown /rcm-text command "bogus"');

        // A web or desktop client sends /rcm (the TUI's command): no terminal UI shows the session, so /rcm-text's answer lands in it.
        const typed = await client.session.command({ sessionID, command: "rcm", arguments: "status" });
        expect(typed.response?.status).toBe(500);
        expect(answers(await messages(sessionID)).at(-1)).toMatch(
          /^\/rcm status\n\(\/rcm answers in a dialog of the terminal UI, and no terminal UI shows this session: answered as \/rcm-text, the command for this client\)\nopencode-rcm is on:/,
        );
        // OpenCode writes its log behind the answer: wait for the typed command's line.
        const logFile = join(runDir, "home", "data", "opencode", "log", "opencode.log");
        let log = "";
        for (let tries = 0; tries < 50 && !log.includes("answered /rcm itself"); tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          log = await readFile(logFile, "utf8");
        }
        expect(log).toContain("CommandAnswered: expected, not a failure: opencode-rcm answered /rcm-text itself (in the session");
        expect(log).toContain("answered /rcm itself (in the session, as a message the model never gets)");
        // OpenCode 1.18 answers the client with its own words, whatever the plug-in threw: only the
        // body's ref leads to the log line that says it is expected and names /rcm-text.
        const body = JSON.parse(bodies.at(-1) ?? "{}") as { name?: string; data?: { message?: string; ref?: string } };
        expect(body).toMatchObject({ name: "UnknownError", data: { message: "Unexpected server error. Check server logs for details." } });
        expect(log.split("\n").find((line) => line.includes(`ref=${body.data?.ref}`))).toContain("CommandAnswered: expected, not a failure");
        expect(log).toContain("web, desktop and opencode run: /rcm-text");

        // Toasts: nothing for the first request, two new tasks, the fallback, the switch back; none
        // after the move, the follow-up stays on the current task (t2), none while off, and the
        // table of contents after it goes back to the install guide (t3).
        await events.waitFor((event) => event.type === "tui.toast.show" && (event.properties as { title?: string }).title === "RCM: switched to t3");
        expect(toasts(events.events).map((toast) => toast.title)).toEqual([
          "RCM: new task t2",
          "RCM: new task t3",
          "RCM: full history",
          "RCM: switched to t1",
          "RCM: switched to t3",
        ]);
        events.close();
      },
    );
  });

  it("moves only the requests named: an unsure request whose edits the move gave to the target stays, and the answer says so (issue 48)", async () => {
    const repo = join(temp.path, "repo-held");
    await createGitRepo(repo, { "README.md": "# tools\n", "src/dates.py": "def parse_date(text):\n    pass\n", "src/cli.py": "def main():\n    pass\n" });
    const runDir = join(temp.path, "run-held");
    const stateDir = join(temp.path, "state-held");
    const write = (file: string | undefined, id: string) =>
      file
        ? [{ toolCalls: [{ name: "write", arguments: { filePath: join(repo, file), content: `# ${id}\n` } }] }, { text: `REPLY-${id}` }]
        : [{ text: `REPLY-${id}` }];
    const say = {
      dates: [ASK.dates, "src/dates.py"],
      json: [ASK.json, "src/cli.py"],
      doc: ["Both src/dates.py and src/cli.py need a module docstring.", "src/textutil.py"],
      jsonTest: ["Also print the --json output of src/cli.py sorted by key.", "src/cli.py"],
      helper: ["Both src/dates.py and src/cli.py should share one helper for trimming input.", "src/textutil.py"],
      again: [ASK.datesAgain, undefined],
    } as const;
    const script = { stages: Object.entries(say).map(([id, [when, file]]) => ({ id, when, steps: write(file, id) })) };
    await withScriptedOpencode(
      { runDir, directory: repo, script, plugins: [[join(PLUGIN), { mode: "router", stateDir }]] },
      async ({ client, prompt, messages }) => {
        const session = await client.session.create({}, { throwOnError: true });
        const sessionID = session.data.id;
        const ledger = async () => SessionStateSchema.parse(JSON.parse(await readFile(sessionStatePath(stateDir, sessionID), "utf8")).data);
        for (const id of ["dates", "json", "doc", "jsonTest", "helper"] as const) await prompt(sessionID, say[id][0]);
        // Requests 3 and 5 name both tasks: unsure, guessed t2, both wrote src/textutil.py, which no settled work had touched.
        const before = await ledger();
        const [, , third, , fifth] = before.ledger.order;
        expect([third, fifth].map((id) => before.ledger.decisions[id ?? ""]?.task)).toEqual(["t2", "t2"]);
        await client.session.command({ sessionID, command: "rcm-text", arguments: "move 3 t1" });
        const answer = answers(await messages(sessionID)).at(-1);
        expect(answer).toMatch(/^\/rcm-text move 3 t1\nMoved request 3 from t2 to t1 "Fix the date parser.*"\. The next model call gets t1's history\.\n/);
        expect(answer).toMatch(
          /\nRequest 5 stays in t2 although its edits \(.*src\/textutil\.py\) are now in t1's files; to move it too: \/rcm-text move 5 t1\n/,
        );
        // Request 5 stays, at the move and at every later step, until it is moved by name.
        await prompt(sessionID, say.again[0]);
        const after = await ledger();
        expect(after.ledger.decisions[third ?? ""]).toMatchObject({ task: "t1", router: "user" });
        expect(after.ledger.decisions[fifth ?? ""]).toMatchObject({ task: "t2", router: "lexical" });
        expect(after.ledger.decisions[fifth ?? ""]?.relabelled).toBeUndefined();
        await client.session.command({ sessionID, command: "rcm-text", arguments: "status" });
        expect(answers(await messages(sessionID)).at(-1)).toMatch(/\n {2}#5 stays in t2; its edits \(.*textutil\.py\) are in t1's files: move 5 t1\n/);
      },
    );
  });

  it("shows config problems at start-up in a toast and in OpenCode's log file, and runs on with the rest of the options", async () => {
    const repo = join(temp.path, "repo-config");
    await createGitRepo(repo, { "README.md": "# tools\n" });
    const runDir = join(temp.path, "run-config");
    const userFile = join(runDir, "home", "config", "opencode", "rcm.jsonc");
    const projectFile = join(repo, ".opencode", "rcm.jsonc");
    await mkdir(dirname(userFile), { recursive: true });
    await prepareConfigDir(dirname(projectFile));
    await writeFile(
      userFile,
      `{\n  "$schema": "https://unpkg.com/opencode-rcm/rcm.schema.json",\n  // typo\n  "confidenceTreshold": 0.7,\n  "router": "lexical"\n}\n`,
    );
    await writeFile(projectFile, `{ "confidenceThreshold": 0.9, "notify": "loud" }\n`);
    const plugins = [[PLUGIN, { mode: "turbo", stateDir: join(temp.path, "state-config") }]] satisfies PluginEntry[];
    const printed = await withScriptedOpencode({ runDir, directory: repo, script: EVERYDAY_SCRIPT, plugins }, async ({ client, messages, server }) => {
      const events = await recordEvents(client);
      const session = await client.session.create({}, { throwOnError: true });
      const problem = await events.waitFor(
        (event) => event.type === "tui.toast.show" && (event.properties as { title?: string }).title === "opencode-rcm: 3 config problems",
      );
      // The toast's lines break only at spaces (a problem's later lines set in): read it as one line.
      const message = (problem.properties as { message: string }).message.replace(/\s+/g, " ");
      expect(message).toContain(`${userFile}:4: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored`);
      expect(message).toContain(`${projectFile}:1: invalid notify = "loud"`);
      expect(message).toMatch(/opencode\.json plug-in options \(mode\): invalid mode = "turbo": .*; using the default "full"/);
      await client.session.command({ sessionID: session.data.id, command: "rcm-text", arguments: "status" });
      expect(answers(await messages(session.data.id)).at(-1)).toContain("opencode-rcm is on: mode full, lexical router, sure from 90%.");
      events.close();
      return server.output();
    });
    expect(printed).toMatch(/message="\/rcm-text answered without a model call" service=opencode-rcm/);
    // `opencode serve` has no TUI to toast on: the problems are printed on its terminal too.
    expect(printed).toContain(`opencode-rcm: config problem: ${userFile}:4: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored`);
    // Every line the plug-in writes carries service=opencode-rcm in OpenCode's own log file.
    const log = await readFile(join(runDir, "home", "data", "opencode", "log", "opencode.log"), "utf8");
    const ours = log.split("\n").filter((line) => line.includes("service=opencode-rcm"));
    expect(ours.some((line) => line.includes("level=WARN") && line.includes("unknown option confidenceTreshold"))).toBe(true);
    expect(ours.some((line) => line.includes("loaded in full mode with the lexical router"))).toBe(true);
  });
});
