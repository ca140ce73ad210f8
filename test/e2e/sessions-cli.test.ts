import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { moveCommand, readVerbCommand, sessionsCommand, statusCommand, switchCommand, whyCommand } from "../../src/cli/sessions/session-verbs.js";
import { RECORD_VERSION } from "../../src/plugin/core/memory/record.js";
import { RECORD_OPEN } from "../../src/plugin/core/memory/render-record.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { rcmVerb } from "../../src/plugin/session-views/rcm-verbs.js";
import { noteProject } from "../../src/plugin/store/project-file.js";
import { pendingIntents, postIntent, sessionInboxDir } from "../../src/plugin/store/session-inbox.js";
import { resolveStateDir } from "../../src/plugin/store/state-dir.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, sourceFor, storeWithRouting } from "../support/plugin-parts.js";
import { namedTaskRouter } from "../support/routing.js";
import { runCli } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

// The recorded two-task session: slugify (t1), changelog (t2), back to slugify.
const history = mainSession("two-tasks-with-tool-error");
const sessionID = history[0]?.info.sessionID as string;
const users = history.filter((message) => message.info.role === "user");
const textOf = (message: MessageWithParts) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let env: Record<string, string>;
let project: string;
let stateDir: string;
beforeEach(async () => {
  temp = await makeTempDir("rcm-sessions-cli");
  env = { XDG_DATA_HOME: join(temp.path, "data"), XDG_CONFIG_HOME: join(temp.path, "config") };
  project = join(temp.path, "project");
  // Where the plug-in keeps the project's state by default, noted as it does at load.
  stateDir = resolveStateDir({ projectID: "abc123", env, home: temp.path });
  // The server noted its options too: the opencode.json tuple's, which the CLI cannot read itself.
  await noteProject(stateDir, {
    projectID: "abc123",
    worktree: project,
    directory: project,
    settings: { mode: "router", router: "lexical", confidenceThreshold: 0.75 },
  });
});
afterEach(async () => {
  await temp.remove();
});

/** The plug-in's server part as OpenCode runs it: the session routed request by request. */
async function servedSession() {
  const source = sourceFor({ [sessionID]: { messages: history } });
  const { store, routing } = storeWithRouting({ stateDir, router: namedTaskRouter, source, logger: recordingLogger() });
  for (const request of users) {
    source.upTo(request.info.id);
    await routing.route(sessionID, request.info.id, textOf(request));
  }
  source.upTo("(none)");
  return store;
}

describe("opencode-rcm sessions, status, why, move, off, on (outside the TUI)", () => {
  it("finds the project's sessions from a folder inside it, with their tasks, and reads them without changing a file", async () => {
    await servedSession();
    const scope = { directory: join(project, "src"), env };
    const listed = await sessionsCommand(scope);
    expect(listed).toContain(`Sessions of ${stateDir}`);
    expect(listed).toMatch(new RegExp(`${sessionID} +\\d+ s ago +3 requests, 2 tasks`));
    // Each task with the request numbers move takes (issue 48).
    expect(listed).toMatch(/\* t1 +#1 #3 +Task A: add textkit\/slugify\.py/);
    expect(listed).toMatch(/ {3}t2 +#2 +Task B: write a CHANGELOG entry/);
    const files = async () =>
      Promise.all((await readdir(join(stateDir, "sessions"))).map(async (name) => [name, (await stat(join(stateDir, "sessions", name))).mtimeMs]));
    const before = await files();
    const status = await statusCommand(scope, sessionID.slice(0, 8));
    expect(status).toMatch(new RegExp(`^Session ${sessionID} \\(untitled\\)\\nopencode-rcm is on: mode router, lexical router, sure from 75%\\.`));
    expect(await whyCommand(scope, undefined)).toContain("No model call of this session has passed through opencode-rcm yet.");
    expect(await files()).toEqual(before);
  });

  it("show: a task's record for a person, and with --as-model the text the model gets, labelled", async () => {
    const store = await servedSession();
    const [first] = users.map((message) => message.info.id);
    await store.step(sessionID, (session) =>
      store.commit(session, {
        ...session.state,
        records: {
          t1: {
            version: RECORD_VERSION,
            task: "t1",
            goal: "A slugify(text) function",
            constraints: [{ id: "c1", text: "slugify lowercases the text", sources: [first as string] }],
            progress: [],
            pending: ["slugify lowercases the text"],
            files: [],
            uncertainties: [],
            coverage: { through: first as string, groups: [first as string] },
            lastUpdate: { updater: "extractive", groups: 1, notes: [] },
          },
        },
      }),
    );
    const show = rcmVerb("show");
    if (show?.kind !== "read") throw new Error("show is a reading verb");
    const scope = { directory: project, env };
    const person = await readVerbCommand(scope, undefined, show, "t1");
    expect(person).toContain("  1. slugify lowercases the text  (#1)");
    expect(person).toContain("Pending (1, not yet shown done by a passing test run after an edit):\n  Not started:\n    ask 1 (above)");
    expect(person).toContain("No model call has had this record yet");
    expect(person).toContain("The text the model gets: opencode-rcm show t1 --as-model");
    expect(person).not.toContain(RECORD_OPEN);
    const model = await readVerbCommand(scope, undefined, show, "t1", "model");
    expect(model).toContain("The text the model gets for t1's record, word for word");
    expect(model).toContain(`${RECORD_OPEN} task="t1">`);
  });

  it("names what it could not find: a folder with no state, a session id matching none", async () => {
    await servedSession();
    await expect(sessionsCommand({ directory: join(temp.path, "elsewhere"), env })).rejects.toThrow(
      /no opencode-rcm state for .*elsewhere under .*opencode\/rcm: name the project with --dir <project folder>, or run OpenCode there/,
    );
    await expect(statusCommand({ directory: project, env }, "ses_nope")).rejects.toThrow(/no session "ses_nope" in .*sessions \(recent: ses_/);
    await expect(moveCommand({ directory: project, env }, undefined, ["t9"])).rejects.toThrow(
      `session ${sessionID}: no task "t9" in this session (tasks: t1, t2, or new)`,
    );
  });

  it("move, off and on wait in the session's inbox; the server applies them at its next step, and status says what still waits", async () => {
    const store = await servedSession();
    const scope = { directory: project, env };
    expect(await moveCommand(scope, undefined, ["t2"])).toContain(`In session ${sessionID}, request 3 moves from t1 to t2; nothing else moves`);
    expect(await switchCommand(scope, undefined, true)).toContain("opencode-rcm turns off for this session");
    expect((await pendingIntents(stateDir, sessionID)).map((pending) => pending.intent.kind)).toEqual(["move", "off"]);
    expect(await statusCommand(scope, undefined)).toContain("Waiting for OpenCode to apply (at the session's next request): move request 3 to t2; switch off");

    // The server's next step for the session (the next request's transform, say) applies both, in order.
    const call = await store.read(sessionID);
    expect(call?.off).toBe(true);
    const last = call?.ledger.order.at(-1) ?? "";
    expect(call?.ledger.decisions[last]).toMatchObject({ task: "t2", router: "user" });
    expect(await pendingIntents(stateDir, sessionID)).toEqual([]);
    const status = await statusCommand(scope, undefined);
    expect(status).toContain("opencode-rcm is OFF for this session: native history (opencode-rcm on to resume;");
    expect(status).not.toContain("Waiting");
    // The TUI's toast makes the server apply what waits at once, for a session it holds: the file says so before any other step.
    await switchCommand(scope, undefined, false);
    await store.pickUp();
    expect(await pendingIntents(stateDir, sessionID)).toEqual([]);
    expect(JSON.parse(await readFile(join(stateDir, "sessions", `${sessionID}.json`), "utf8")).data.off).toBe(false);
  });

  it("a move applies once: asked twice, or after the request moved since, it changes nothing more", async () => {
    const store = await servedSession();
    const scope = { directory: project, env };
    await moveCommand(scope, undefined, ["new"]);
    await moveCommand(scope, undefined, ["new"]);
    await store.read(sessionID);
    const ledger = (await store.read(sessionID))?.ledger;
    // One new task, not two: the second intent found the request in t3, not in t1 where it was asked from.
    expect(ledger?.tasks.map((task) => task.id)).toEqual(["t1", "t2", "t3"]);
    expect(await pendingIntents(stateDir, sessionID)).toEqual([]);
  });

  it("pickUp leaves sessions this server does not hold to their own next step, and survives one it cannot load", async () => {
    const store = await servedSession();
    await postIntent(stateDir, "ses_elsewhere", { kind: "off" });
    await postIntent(stateDir, sessionID, { kind: "off" });
    await store.pickUp();
    expect((await pendingIntents(stateDir, "ses_elsewhere")).length).toBe(1);
    expect(await pendingIntents(stateDir, sessionID)).toEqual([]);
    store.forget(sessionID);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readdir(join(stateDir, "sessions"))).not.toContain(`${sessionID}.inbox`);
  });

  it("drops what was asked for a sub-agent session, which the plug-in leaves untouched", async () => {
    const source = sourceFor({ [sessionID]: { messages: history, parentID: "ses_parent" } });
    const logger = recordingLogger();
    const { store } = storeWithRouting({ stateDir, router: namedTaskRouter, source, logger });
    await postIntent(stateDir, sessionID, { kind: "off" });
    expect(await store.read(sessionID)).toBeUndefined();
    expect(await pendingIntents(stateDir, sessionID)).toEqual([]);
    expect(logger.lines).toContain("info: dropped off from the TUI or CLI: a sub-agent session is left untouched");
  });

  it("a request in the inbox that cannot be read is set aside as .bad and logged, never applied", async () => {
    const source = sourceFor({ [sessionID]: { messages: history } });
    const logger = recordingLogger();
    const { store } = storeWithRouting({ stateDir, router: namedTaskRouter, source, logger });
    await postIntent(stateDir, sessionID, { kind: "off" });
    await writeFile(join(sessionInboxDir(stateDir, sessionID), "000000000000001-deadbeef.json"), '{"kind":"explode"}\n');
    expect((await store.read(sessionID))?.off).toBe(true);
    expect((await readdir(sessionInboxDir(stateDir, sessionID))).sort()).toEqual(["000000000000001-deadbeef.json.bad"]);
    expect(logger.lines.some((line) => line.includes("ignored an unreadable request from the TUI or CLI"))).toBe(true);
  });

  it("runs as a command: sessions from the project folder, a usage error in one line and a hint", async () => {
    await servedSession();
    const listed = await runCli(["sessions", "--dir", project], env);
    expect(listed.stdout).toContain(sessionID);
    // Every /rcm verb is a command too: tasks and show read the state as /rcm does.
    const tasks = await runCli(["tasks", "--dir", project], env);
    expect(tasks.stdout).toMatch(
      new RegExp(
        `^Session ${sessionID} \\(untitled\\) \\(no TUI open here: the latest session opencode-rcm wrote\\)\\nTasks \\(2; #n: the request numbers move takes\\):\n\\* t1 +current +2 requests #1 #3 `,
      ),
    );
    const shown = await runCli(["show", "t2", "--dir", project], env);
    expect(shown.stdout).toContain("No memory record yet");
    const unknownTask = await runCli(["show", "t9", "--dir", project], env);
    expect(unknownTask?.code).toBe(2);
    expect(unknownTask?.stderr).toContain(`opencode-rcm: session ${sessionID}: no task "t9" in this session (tasks: t1, t2) (session)`);
    const failed = await runCli(["move", "a", "b", "c", "--dir", project], env);
    expect(failed?.code).toBe(2);
    expect(failed?.stderr.trim().split("\n")).toEqual([
      "opencode-rcm: move takes [<session>] [requests] <task|new>, got a b c: e.g. opencode-rcm move t2, or move 3.. t2 (usage)",
      'Run "opencode-rcm move --help" for the options.',
    ]);
    expect(JSON.parse(await readFile(join(stateDir, "project.json"), "utf8")).data).toMatchObject({
      projectID: "abc123",
      worktree: project,
      directories: [project],
    });
  });
});
