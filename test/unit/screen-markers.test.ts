import { readdir, readFile, utimes } from "node:fs/promises";
import { join } from "node:path";
import type { TuiPluginApi } from "@opencode-ai/plugin/tui";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionsCommand, statusCommand, switchCommand } from "../../src/cli/sessions/session-verbs.js";
import { emptyLedger } from "../../src/plugin/core/routing/ledger.js";
import { createTitleRecorder } from "../../src/plugin/hosts/opencode-1/server/title-recorder.js";
import { recordScreen } from "../../src/plugin/hosts/opencode-1/tui/screen-marker.js";
import { noteProject } from "../../src/plugin/store/project-file.js";
import { liveScreenMarkers, type ScreenMarker, writeScreenMarker } from "../../src/plugin/store/screen-markers.js";
import { NO_SAVINGS, sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { noteSessionTitle } from "../../src/plugin/store/session-titles.js";
import { resolveStateDir } from "../../src/plugin/store/state-dir.js";
import { findSession } from "../../src/plugin/store/stored-sessions.js";
import { makeTempDir } from "../support/temp-dir.js";

// No process has this id (Linux pids stop far below it): a TUI that is gone.
const DEAD_PID = 2_000_000_000;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let env: Record<string, string>;
let project: string;
let stateDir: string;
beforeEach(async () => {
  temp = await makeTempDir("rcm-screen-markers");
  env = { XDG_DATA_HOME: join(temp.path, "data"), XDG_CONFIG_HOME: join(temp.path, "config") };
  project = join(temp.path, "project");
  stateDir = resolveStateDir({ projectID: "abc123", env, home: temp.path });
  await noteProject(stateDir, {
    projectID: "abc123",
    worktree: project,
    directory: project,
    settings: { mode: "router", router: "lexical", confidenceThreshold: 0.8 },
  });
});
afterEach(async () => {
  await temp.remove();
});

/** A session's state file as the server part writes it, last written `secondsAgo`. */
async function storedSession(sessionID: string, secondsAgo: number): Promise<void> {
  const file = sessionStateFile(stateDir, sessionID);
  await file.save({ sessionID, ledger: emptyLedger(), records: {}, memoryUpdates: [], off: false, saved: NO_SAVINGS });
  const when = new Date(Date.now() - secondsAgo * 1000);
  await utimes(file.path, when, when);
}

function marker(sessionID: string, pid: number, secondsAgo: number, title?: string): ScreenMarker {
  return { sessionID, pid, activeAt: new Date(Date.now() - secondsAgo * 1000).toISOString(), ...(title === undefined ? {} : { title }) };
}

const firstLine = (text: string) => text.split("\n")[0];

describe("the CLI answers about the session on the user's screen", () => {
  it("takes the session of the live TUI over a newer session that an opencode run wrote", async () => {
    await storedSession("ses_tui", 60);
    await storedSession("ses_run", 5);
    await writeScreenMarker(stateDir, marker("ses_tui", process.pid, 30, "Fix the CSV export"));
    const status = await statusCommand({ directory: project, env }, undefined);
    expect(firstLine(status)).toBe('Session ses_tui "Fix the CSV export" (on screen in the TUI)');
    // `latest` still means the one written last; the server's title names it.
    await noteSessionTitle(stateDir, { sessionID: "ses_run", title: "A one-off question", at: new Date() });
    expect(firstLine(await statusCommand({ directory: project, env }, "latest"))).toBe(
      'Session ses_run "A one-off question" (latest: the session opencode-rcm wrote last)',
    );
  });

  it("ignores the marker of a TUI that is gone, and falls back to the latest session, saying so", async () => {
    await storedSession("ses_old", 60);
    await storedSession("ses_new", 5);
    await writeScreenMarker(stateDir, marker("ses_old", DEAD_PID, 1, "Old work"));
    expect(await liveScreenMarkers(stateDir)).toEqual([]);
    const status = await statusCommand({ directory: project, env }, undefined);
    expect(firstLine(status)).toBe("Session ses_new (untitled) (no TUI open here: the latest session opencode-rcm wrote)");
  });

  it("with no marker at all, answers about the latest session and says there is no TUI", async () => {
    await storedSession("ses_only", 5);
    await noteSessionTitle(stateDir, { sessionID: "ses_only", title: "Add a --json flag", at: new Date() });
    const answer = await switchCommand({ directory: project, env }, undefined, true);
    expect(firstLine(answer)).toBe('Session ses_only "Add a --json flag" (no TUI open here: the latest session opencode-rcm wrote)');
    expect(answer).toContain("opencode-rcm turns off for this session");
  });

  it("does not guess between two TUIs used at the same time on different sessions: the error lists both", async () => {
    await storedSession("ses_left", 60);
    await storedSession("ses_right", 50);
    await writeScreenMarker(stateDir, marker("ses_left", process.pid, 10, "Left work"));
    await writeScreenMarker(stateDir, marker("ses_right", process.ppid, 11, "Right work"));
    const failure = statusCommand({ directory: project, env }, undefined);
    await expect(failure).rejects.toThrow(
      /2 TUIs open here were used within 2 s of each other, on different sessions: ses_left "Left work" \(TUI pid \d+, active [^)]+\); ses_right "Right work" \(TUI pid \d+, active [^)]+\); pass the session id/,
    );
    await expect(failure).rejects.toMatchObject({ code: "session" });
    // On a terminal the user picks one; the answer says so.
    const picked = await statusCommand(
      { directory: project, env, choose: async (candidates) => candidates.findIndex((candidate) => candidate.sessionID === "ses_right") },
      undefined,
    );
    expect(firstLine(picked)).toBe('Session ses_right "Right work" (on screen in the TUI you picked)');
  });

  it("takes the TUI used last when the other was used well before, and says another session is on screen", async () => {
    await storedSession("ses_left", 60);
    await storedSession("ses_right", 50);
    await writeScreenMarker(stateDir, marker("ses_left", process.pid, 3, "Left work"));
    await writeScreenMarker(stateDir, marker("ses_right", process.ppid, 40, "Right work"));
    const found = await findSession({ stateDir, wanted: undefined });
    expect(found).toMatchObject({ sessionID: "ses_left", title: "Left work", pick: { how: "on-screen", picked: false, otherScreens: 1 } });
  });

  it("skips a TUI showing a session with no state yet, and lists titles and the session on screen", async () => {
    await storedSession("ses_a", 60);
    await storedSession("ses_b", 5);
    await writeScreenMarker(stateDir, marker("ses_a", process.pid, 30, "Task A"));
    await writeScreenMarker(stateDir, marker("ses_fresh", process.ppid, 1, "Brand new"));
    expect(firstLine(await statusCommand({ directory: project, env }, undefined))).toBe('Session ses_a "Task A" (on screen in the TUI)');
    const listed = await sessionsCommand({ directory: project, env });
    expect(listed).toMatch(/ses_a .* "Task A" {2}\(on screen in a TUI\)/);
    expect(listed).toMatch(/ses_b .* \(untitled\)\n/);
  });
});

describe("the server part notes the sessions' titles for the CLI", () => {
  it("writes titles.json when a title changes, never for a sub-agent's session", async () => {
    const recorder = createTitleRecorder(stateDir);
    const info = (id: string, title: string, parentID?: string) => ({ id, title, ...(parentID ? { parentID } : {}) });
    await recorder.observe({ type: "session.created", properties: { info: info("ses_1", "New session - 2026-01-01") } });
    await recorder.observe({ type: "session.updated", properties: { info: info("ses_1", "Fix the date parser") } });
    await recorder.observe({ type: "session.updated", properties: { info: info("ses_sub", "Look for callers", "ses_1") } });
    await recorder.observe({ type: "session.idle", properties: { sessionID: "ses_1" } });
    const file = JSON.parse(await readFile(join(stateDir, "titles.json"), "utf8")) as { data: Record<string, { title: string }> };
    expect(Object.keys(file.data)).toEqual(["ses_1"]);
    expect(file.data.ses_1?.title).toBe("Fix the date parser");
  });
});

describe("the TUI part's screen marker", () => {
  /** The slice of the TUI API the marker uses, with the route and the events in the test's hands. */
  function fakeTui() {
    const handlers = new Map<string, (event: unknown) => void>();
    const disposers: Array<() => void | Promise<void>> = [];
    const logged: string[] = [];
    const tui = {
      route: { current: { name: "home" } as { name: string; params?: Record<string, unknown> } },
      state: { session: { get: (id: string) => (id === "ses_shown" ? { title: "Shown work" } : undefined) } },
      client: { session: { get: async () => ({ data: { title: "From the server" } }) } },
      event: {
        on: (type: string, handler: (event: unknown) => void) => {
          handlers.set(type, handler);
          return () => handlers.delete(type);
        },
      },
      lifecycle: { onDispose: (fn: () => void | Promise<void>) => disposers.push(fn) },
    };
    return {
      api: tui as unknown as TuiPluginApi,
      tui,
      logged,
      emit: (type: string, properties: unknown) => handlers.get(type)?.({ type, properties }),
      dispose: async () => {
        for (const fn of disposers) await fn();
      },
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const markerFile = () => join(stateDir, "screens", `${process.pid}.json`);
  const readMarker = async () => (JSON.parse(await readFile(markerFile(), "utf8")) as { data: ScreenMarker }).data;

  it("names the session on screen, moves activeAt when the user sends a request there, follows its title, and is removed on exit", async () => {
    const fake = fakeTui();
    fake.tui.route.current = { name: "session", params: { sessionID: "ses_shown" } };
    recordScreen({ api: fake.api, stateDir, log: (what, error) => fake.logged.push(`${what}: ${String(error)}`) });
    await settle();
    const first = await readMarker();
    expect(first).toMatchObject({ sessionID: "ses_shown", title: "Shown work", pid: process.pid });

    await new Promise((resolve) => setTimeout(resolve, 20));
    fake.emit("message.updated", { info: { id: "msg_1", role: "user", sessionID: "ses_shown" } });
    fake.emit("message.updated", { info: { id: "msg_2", role: "assistant", sessionID: "ses_shown" } });
    fake.emit("session.updated", { info: { id: "ses_shown", title: "Renamed work" } });
    await settle();
    const later = await readMarker();
    expect(Date.parse(later.activeAt)).toBeGreaterThan(Date.parse(first.activeAt));
    expect(later.title).toBe("Renamed work");

    await fake.dispose();
    expect(await readdir(join(stateDir, "screens"))).toEqual([]);
    expect(fake.logged).toEqual([]);
  });

  it("asks the server for the title the TUI does not know yet, and drops the marker when the TUI goes home", async () => {
    const fake = fakeTui();
    fake.tui.route.current = { name: "session", params: { sessionID: "ses_other" } };
    await writeScreenMarker(stateDir, marker("ses_gone", DEAD_PID, 100));
    recordScreen({ api: fake.api, stateDir, log: () => undefined });
    await settle();
    // The dead TUI's marker is cleared away on start.
    expect(await readdir(join(stateDir, "screens"))).toEqual([`${process.pid}.json`]);
    expect((await readMarker()).title).toBe("From the server");
    fake.tui.route.current = { name: "home" };
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await readdir(join(stateDir, "screens"))).toEqual([]);
    await fake.dispose();
  });
});
