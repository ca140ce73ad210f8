import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IN_USE_MS, noteSessionInUse, sessionsInUseElsewhere } from "../../src/plugin/store/live-sessions-file.js";
import { claimTask, readTaskMarks } from "../../src/plugin/store/task-marks.js";
import { makeTempDir } from "../support/temp-dir.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await makeTempDir("rcm-live-sessions");
});
afterEach(() => dir.remove());

const NOW = new Date("2026-12-06T10:00:00Z");
const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

describe("sessions in use in another process", () => {
  it("are another running process's sessions that routed lately, never this process's own", async () => {
    await noteSessionInUse(dir.path, "ses_one", NOW, 101);
    await noteSessionInUse(dir.path, "ses_two", NOW, 202);
    const seen = await sessionsInUseElsewhere(dir.path, NOW, { pid: 101, isAlive: alive([101, 202]) });
    expect([...seen]).toEqual([["ses_two", 202]]);
  });

  it("are not those of the process that serves the session asking (a TUI part or the CLI may run apart from its server)", async () => {
    await noteSessionInUse(dir.path, "ses_earlier", NOW, 303);
    await noteSessionInUse(dir.path, "ses_asking", NOW, 303);
    await noteSessionInUse(dir.path, "ses_other", NOW, 404);
    const seen = await sessionsInUseElsewhere(dir.path, NOW, { pid: 1, isAlive: alive([303, 404]), asking: "ses_asking" });
    expect([...seen]).toEqual([["ses_other", 404]]);
  });

  it("are not those of a process that is gone, nor a session idle for longer than the window", async () => {
    await noteSessionInUse(dir.path, "ses_gone", NOW, 303);
    await noteSessionInUse(dir.path, "ses_idle", new Date(NOW.getTime() - IN_USE_MS - 1), 404);
    expect((await sessionsInUseElsewhere(dir.path, NOW, { pid: 1, isAlive: alive([404]) })).size).toBe(0);
  });

  it("forget, in a process's own file, the sessions idle past the window", async () => {
    await noteSessionInUse(dir.path, "ses_old", NOW, 505);
    const later = new Date(NOW.getTime() + IN_USE_MS + 1);
    await noteSessionInUse(dir.path, "ses_new", later, 505);
    expect([...(await sessionsInUseElsewhere(dir.path, later, { pid: 1, isAlive: alive([505]) })).keys()]).toEqual(["ses_new"]);
  });
});

describe("claiming an earlier session's task", () => {
  it("marks it resumed by the first claimant; a second claim gets that mark back and changes nothing", async () => {
    const first = await claimTask(dir.path, { sessionID: "ses_a", taskId: "t1", by: "ses_b/t1", at: NOW });
    const second = await claimTask(dir.path, { sessionID: "ses_a", taskId: "t1", by: "ses_c/t1", at: NOW });
    expect(first).toBeUndefined();
    expect(second).toMatchObject({ mark: "resumed", by: "ses_b/t1" });
    expect((await readTaskMarks(dir.path)).marks).toEqual({ "ses_a/t1": { mark: "resumed", at: NOW.toISOString(), by: "ses_b/t1" } });
  });

  it("of two claims at the same moment, keeps exactly one", async () => {
    const claims = await Promise.all(
      ["ses_b", "ses_c", "ses_d"].map((session) => claimTask(dir.path, { sessionID: "ses_a", taskId: "t2", by: `${session}/t2`, at: NOW })),
    );
    expect(claims.filter((claim) => claim === undefined)).toHaveLength(1);
  });
});
