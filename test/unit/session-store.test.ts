import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLiveSessions, createSessionStore } from "../../src/plugin/sessions/session-store.js";
import { postIntent } from "../../src/plugin/store/session-inbox.js";
import { sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, sourceFor } from "../support/plugin-parts.js";
import { makeTempDir } from "../support/temp-dir.js";

const history = mainSession("two-tasks-with-tool-error");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-session-store");
});
afterEach(async () => {
  await temp.remove();
});

function storeOf(options: { maxSessions?: number } = {}) {
  const source = sourceFor({ ses_a: { messages: history }, ses_b: { messages: history }, ses_child: { parentID: "ses_a", messages: history } });
  const logger = recordingLogger();
  const sessions = createLiveSessions(options.maxSessions === undefined ? {} : { max: options.maxSessions });
  return { store: createSessionStore({ stateDir: temp.path, source, logger, sessions }), logger };
}

const onDisk = async (sessionID: string) => {
  const peeked = await sessionStateFile(temp.path, sessionID).peek();
  return peeked.status === "loaded" ? peeked.value : undefined;
};

describe("the session store", () => {
  it("runs one session's steps one at a time, in the order asked, and other sessions' beside them", async () => {
    const { store } = storeOf();
    const events: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      events.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      events.push(`${name} end`);
    };
    await Promise.all([store.step("ses_a", slow("a1", 30)), store.step("ses_a", slow("a2", 1)), store.step("ses_b", slow("b1", 1))]);
    expect(events.indexOf("a1 end")).toBeLessThan(events.indexOf("a2 start"));
    // ses_b did not wait for ses_a's first step.
    expect(events.indexOf("b1 end")).toBeLessThan(events.indexOf("a1 end"));
  });

  it("writes a committed state at once and a staged one at flush, or when the session leaves memory", async () => {
    const { store } = storeOf({ maxSessions: 1 });
    await store.step("ses_a", (session) => store.commit(session, { ...session.state, off: true }));
    expect((await onDisk("ses_a"))?.off).toBe(true);
    await store.step("ses_a", (session) => store.stage(session, { ...session.state, saved: { calls: 1, routingTokens: 10, memoryTokens: 0 } }));
    expect((await onDisk("ses_a"))?.saved.calls).toBe(0);
    expect((await store.current("ses_a"))?.saved.calls).toBe(1);
    await store.flush("ses_a");
    expect((await onDisk("ses_a"))?.saved.calls).toBe(1);

    await store.step("ses_a", (session) => store.stage(session, { ...session.state, saved: { calls: 2, routingTokens: 20, memoryTokens: 0 } }));
    // ses_b takes the one place in memory: ses_a's staged state is written as it leaves.
    await store.read("ses_b");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await onDisk("ses_a"))?.saved.calls).toBe(2);
    expect((await store.read("ses_a"))?.saved.calls).toBe(2);
  });

  it("applies what the TUI or the CLI left in the inbox before a step, but not before a write-behind step", async () => {
    const { store, logger } = storeOf();
    await store.read("ses_a");
    await postIntent(temp.path, "ses_a", { kind: "off" });
    expect(await store.step("ses_a", (session) => session.state.off, { intents: false })).toBe(false);
    expect(await store.step("ses_a", (session) => session.state.off)).toBe(true);
    expect(logger.lines).toContain("info: switched off (native history) for this session by the user");
    await postIntent(temp.path, "ses_a", { kind: "off" });
    await store.pickUp();
    expect(logger.lines).toContain("info: dropped off from the TUI or CLI: already off");
  });

  it("keeps nothing for a sub-agent session and never writes its state", async () => {
    const { store } = storeOf();
    expect(await store.read("ses_child")).toBeUndefined();
    expect(await store.current("ses_child")).toBeUndefined();
    expect(await store.step("ses_child", (session) => session.subagent)).toBe(true);
    await store.flush("ses_child");
    expect(await onDisk("ses_child")).toBeUndefined();
  });
});
