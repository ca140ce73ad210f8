import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { RCM_COMMAND_CONFIG, RCM_TYPED_COMMAND_CONFIG, RCM_USAGE } from "../../src/plugin/handlers/rcm-command.js";
import { RCM_MENU_TITLE, RCM_VERBS, rcmVerb } from "../../src/plugin/session-views/rcm-verbs.js";
import { ledgerOf, stateOf } from "../support/routing.js";

const options = { ...DEFAULT_OPTIONS, mode: "router" as const };
const state = stateOf(
  "ses_verbs",
  ledgerOf([
    ["msg_1", "new:slugify"],
    ["msg_2", "new:changelog"],
  ]),
);

describe("the /rcm verbs, listed once", () => {
  it("every verb is in the server's usage and command description, in the list's order", () => {
    const usage = RCM_USAGE.split("\n");
    expect(usage.map((line) => line.split(/\s+/)[1])).toEqual(RCM_VERBS.map((verb) => verb.name));
    for (const verb of RCM_VERBS) expect(RCM_COMMAND_CONFIG.description).toContain(`${verb.name}${verb.argument ? ` ${verb.argument}` : ""}`);
  });

  it("reading verbs answer from the state alone; show without a state falls back to the status", () => {
    expect(rcmVerb("tasks")?.kind).toBe("read");
    const tasks = rcmVerb("tasks");
    if (tasks?.kind !== "read") throw new Error("tasks is a reading verb");
    expect(tasks.answer({ options, state })).toContain("Tasks (2; #n: the request numbers move takes):");
    const show = rcmVerb("show");
    if (show?.kind !== "read") throw new Error("show is a reading verb");
    const status = rcmVerb("status");
    if (status?.kind !== "read") throw new Error("status is a reading verb");
    expect(show.answer({ options, state: undefined }, "t1")).toBe(status.answer({ options, state: undefined }));
  });

  it("changing verbs give the inbox's intents: move names the requests (the last by default) and where each came from", () => {
    const move = rcmVerb("move");
    if (move?.kind !== "change") throw new Error("move is a changing verb");
    expect(move.intent(state, ["t1"])).toEqual({ kind: "move", requests: [{ messageID: "msg_2", from: "t2" }], target: { kind: "task", task: "t1" } });
    expect(move.intent(state, ["new"])).toMatchObject({ target: { kind: "new" } });
    expect(move.intent(state, ["1..", "new"])).toEqual({
      kind: "move",
      requests: [
        { messageID: "msg_1", from: "t1" },
        { messageID: "msg_2", from: "t2" },
      ],
      target: { kind: "new" },
    });
    expect(move.intent(state, ["2", "t2"])).toEqual({ problem: "that request is in t2 already" });
    expect(move.intent(state, ["7", "t1"])).toEqual({ problem: "no request 7: this session has requests 1 to 2" });
    expect(move.intent(state, ["x", "t1"])).toEqual({ problem: '"x" is not a request number (3, 3-5, or 3.. for 3 and every later one)' });
    expect(move.intent(state, ["t9"])).toEqual({ problem: 'no task "t9" in this session (tasks: t1, t2, or new)' });
    expect(move.intent(undefined, ["t1"])).toEqual({ problem: "no request has been routed in this session yet" });
    const off = rcmVerb("off");
    const on = rcmVerb("on");
    if (off?.kind !== "change" || on?.kind !== "change") throw new Error("off and on are changing verbs");
    expect([off.offered(state), on.offered(state)]).toEqual([true, false]);
    expect([off.offered({ ...state, off: true }), on.offered({ ...state, off: true })]).toEqual([false, true]);
  });
});

describe("the three entries typing /rcm lists in the TUI (issue 48)", () => {
  it("say which is which: the menu, a verb typed after it, and the command for other clients", () => {
    expect(RCM_MENU_TITLE).toMatch(/^opencode-rcm menu: status, why, tasks, show, move, off, on, split, resume, done, drop \(no model turn\)$/);
    expect(RCM_TYPED_COMMAND_CONFIG.description).toMatch(/^with a verb typed after it: .*\(without one: the menu\)$/);
    // The TUI ranks its slash list by each description's match of the typed "rcm" too: the menu's must win.
    expect(RCM_TYPED_COMMAND_CONFIG.description.toLowerCase()).not.toContain("rcm");
    expect(RCM_COMMAND_CONFIG.description).toMatch(/^opencode-rcm for web, desktop, opencode run \(in the terminal UI: \/rcm\)/);
    expect(new Set([RCM_MENU_TITLE, RCM_TYPED_COMMAND_CONFIG.description, RCM_COMMAND_CONFIG.description]).size).toBe(3);
  });
});

describe("the /rcm verbs on the command line", () => {
  it("every verb is an opencode-rcm command, after sessions, in the verbs' order (resume, done and drop among them)", async () => {
    const { sessionCommands } = await import("../../src/cli/session-commands.js");
    expect(Object.keys(sessionCommands)).toEqual(["sessions", ...RCM_VERBS.map((verb) => verb.name)]);
    expect(RCM_VERBS.slice(-3).map((verb) => verb.name)).toEqual(["resume", "done", "drop"]);
  });
});
