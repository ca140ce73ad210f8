import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, OptionsSchema } from "../../src/plugin/config/options-schema.js";
import { reportCall } from "../../src/plugin/core/context/call-report.js";
import { activeTask, buildCallView } from "../../src/plugin/core/context/call-view.js";
import { EMPTY_PLAN } from "../../src/plugin/core/context/context-plan.js";
import { narrowToTask } from "../../src/plugin/core/context/narrow-to-task.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { answerRcmCommand, RCM_USAGE, UsageError } from "../../src/plugin/handlers/rcm-command.js";
import { tokens } from "../../src/plugin/session-views/words.js";
import type { SessionRouting } from "../../src/plugin/sessions/session-routing.js";
import { type SessionStore, withCallNoted } from "../../src/plugin/sessions/session-store.js";
import { THRESHOLD } from "../support/defaults.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, sourceFor, storeWithRouting } from "../support/plugin-parts.js";
import { namedTaskRouter } from "../support/routing.js";
import { makeTempDir } from "../support/temp-dir.js";

// The recorded two-task session: slugify (t1), changelog (t2), back to slugify.
const history = mainSession("two-tasks-with-tool-error");
const sessionID = history[0]?.info.sessionID as string;
const users = history.filter((message) => message.info.role === "user");
const textOf = (message: MessageWithParts) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-command");
});
afterEach(async () => {
  await temp.remove();
});

async function routedSession(): Promise<{
  parts: { store: SessionStore; routing: SessionRouting };
  store: SessionStore;
  routing: SessionRouting;
  source: ReturnType<typeof sourceFor>;
}> {
  const source = sourceFor({ [sessionID]: { messages: history } });
  const parts = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
  const { routing } = parts;
  for (const request of users) {
    source.upTo(request.info.id);
    await routing.route(sessionID, request.info.id, textOf(request));
  }
  source.upTo("(none)");
  return { parts, ...parts, source };
}

const router = { options: OptionsSchema.parse({ mode: "router" }) };

describe("/rcm answered by the plug-in", () => {
  it("status: mode, the tasks with the current one marked, the last decision and the savings", async () => {
    const { parts } = await routedSession();
    const status = await answerRcmCommand({ ...router, ...parts }, sessionID, "");
    expect(status.split("\n")).toEqual([
      "opencode-rcm is on: mode router, lexical router, sure from 80%.",
      "Tasks (2; #n: the request numbers move takes):",
      "* t1   current   2 requests #1 #3  latest request  Task A: add textkit/slugify.py with a slugify(t…",
      "  t2   suspended 1 request #2      1 request ago   Task B: write a CHANGELOG entry for the 0.2 rel…",
      expect.stringMatching(/^Last request \(#3\): t1 "Task A: .*", \d+% sure: .+\.$/),
      "  The model sees only t1's history; the other tasks are left out.",
      "Saved so far: ~0 tokens kept out of 0 model calls (routing ~0, memory ~0; estimates).",
    ]);
    expect(await answerRcmCommand({ ...router, ...parts }, sessionID, "status")).toBe(status);
  });

  it("why: what the last model call kept and left out per task, and the running savings", async () => {
    const { parts, store } = await routedSession();
    expect(await answerRcmCommand({ ...router, ...parts }, sessionID, "why")).toBe("No model call of this session has passed through opencode-rcm yet.");
    const ledger = (await store.read(sessionID))?.ledger;
    if (!ledger) throw new Error("no ledger");
    const view = buildCallView({ messages: history, ledger });
    const { plan } = narrowToTask({ view, ledger, plan: EMPTY_PLAN, threshold: THRESHOLD, fallback: "full" });
    const report = reportCall({ view, active: activeTask(view, THRESHOLD), narrowed: plan, final: plan, narrowingReason: "task t1" });
    await store.step(sessionID, (session) => store.stage(session, withCallNoted(session.state, report)));
    const why = await answerRcmCommand({ ...router, ...parts }, sessionID, "why");
    expect(why).toMatch(
      /^Last model call \(mode router, answering request #3\): only t1's history, \d+% sure\.\n {2}Kept \(exchanges, this request.s own included\): t1 2\n {2}Left out: t2 1\n/,
    );
    expect(report.tokens.routingSaved).toBeGreaterThan(0);
    const memoryMode = { options: OptionsSchema.parse({ mode: "memory" }), ...parts };
    expect(await answerRcmCommand(memoryMode, sessionID, "why")).toMatch(
      /^Last model call \(mode memory, answering request #3\): task t1, \d+% sure; every task stays in view/,
    );
    expect(await answerRcmCommand({ ...router, ...parts }, sessionID, "status")).toContain(
      `Saved so far: ${tokens(report.tokens.routingSaved)} tokens kept out of 1 model call (routing ${tokens(report.tokens.routingSaved)}, memory ~0; estimates).`,
    );
  });

  it("move: the last request goes to the named task, is stored as the user's decision, and routing learns it", async () => {
    const { parts, routing, store } = await routedSession();
    const answer = await answerRcmCommand({ ...router, ...parts }, sessionID, "move t2");
    expect(answer).toMatch(/^Moved request 3 from t1 to t2 "Task B: .*"\. Nothing else moved\. The next model call gets t2's history\./);
    const state = await store.read(sessionID);
    const last = state?.ledger.order.at(-1) ?? "";
    expect(state?.ledger.decisions[last]).toMatchObject({ task: "t2", confidence: 1, reason: "user", router: "user" });
    // The next bare follow-up stays with the task the user chose.
    const next = await routing.route(sessionID, "msg_next", "Run the tests again.");
    expect(next?.task.id).toBe("t2");
    expect(next?.previous).toBe("t2");
  });

  it("move new: the last request opens a task titled after it", async () => {
    const { parts, store } = await routedSession();
    const answer = await answerRcmCommand({ ...router, ...parts }, sessionID, "move new");
    expect(answer).toMatch(/^Moved request 3 from t1 to t3 \(new task\) "/);
    expect((await store.read(sessionID))?.ledger.tasks.map((task) => task.id)).toEqual(["t1", "t2", "t3"]);
  });

  it("off and on: persisted with the session, read back after a restart", async () => {
    const { parts, source } = await routedSession();
    expect(await answerRcmCommand({ ...router, ...parts }, sessionID, "off")).toContain("off for this session");
    const restarted = storeWithRouting({ stateDir: temp.path, router: namedTaskRouter, source, logger: recordingLogger() });
    expect(await restarted.store.read(sessionID)).toMatchObject({ off: true });
    expect(await restarted.routing.route(sessionID, "msg_while_off", "Something else entirely.")).toBeUndefined();
    expect(await answerRcmCommand({ ...router, ...restarted }, sessionID, "status")).toContain(
      "opencode-rcm is OFF for this session: native history (/rcm-text on to resume;",
    );
    await answerRcmCommand({ ...router, ...restarted }, sessionID, "on");
    expect(await restarted.store.read(sessionID)).toMatchObject({ off: false });
  });

  it("tasks and show: the list with goals, one task's record; an unknown task names the known ones", async () => {
    const { parts } = await routedSession();
    const tasks = await answerRcmCommand({ ...router, ...parts }, sessionID, "tasks");
    expect(tasks).toContain("Tasks (2; #n: the request numbers move takes):");
    expect(tasks).toContain("* t1   current   2 requests #1 #3");
    expect(tasks).toContain("t1 goal: (no record yet)");
    expect(await answerRcmCommand({ ...router, ...parts }, sessionID, "show t2")).toContain("No memory record yet");
    await expect(answerRcmCommand({ ...router, ...parts }, sessionID, "show t9")).rejects.toThrow('no task "t9" in this session (tasks: t1, t2)');
  });

  it("help gives the usage and what OpenCode 1.18 imposes: the expected error and 500, toasts under the sidebar, /rcm listed twice (issue 48)", async () => {
    const { parts } = await routedSession();
    const help = await answerRcmCommand({ ...router, ...parts }, sessionID, "help");
    expect(help.startsWith(RCM_USAGE)).toBe(true);
    expect(help).toContain('an ERROR "CommandAnswered: expected, not a failure" log line and HTTP 500 to the client');
    expect(help).toContain("under the sidebar on a narrow screen");
    expect(help).toContain("typing /rcm lists the terminal UI's menu and the server's /rcm side by side");
  });

  it("a mistyped command answers with what went wrong and the usage", async () => {
    const { parts } = await routedSession();
    for (const [args, problem] of [
      ["bogus", 'unknown /rcm-text command "bogus"'],
      ["move", "/rcm-text move: needs a task id or new"],
      ["move somewhere", '/rcm-text move: no task "somewhere" in this session'],
      ["show", "/rcm-text show needs a task id"],
      ["show t1 verbose", '/rcm-text show: unexpected "verbose" (only model, for the text the model gets: /rcm-text show t1 model)'],
    ] as const) {
      const failure = answerRcmCommand({ ...router, ...parts }, sessionID, args);
      await expect(failure).rejects.toBeInstanceOf(UsageError);
      await expect(failure).rejects.toThrow(problem);
      await expect(failure).rejects.toThrow(RCM_USAGE);
    }
    await expect(answerRcmCommand({ ...router, ...parts }, sessionID, "move t7")).rejects.toThrow(`no task "t7" in this session (tasks: t1, t2, or new)`);
  });

  it("in native mode says so and needs no routing", async () => {
    const answer = await answerRcmCommand({ options: { ...DEFAULT_OPTIONS, mode: "native" } }, sessionID, "status");
    expect(answer).toBe("opencode-rcm is in native mode: it changes nothing (set mode in rcm.jsonc).");
  });
});
