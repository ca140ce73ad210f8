import type { ToolContext } from "@opencode-ai/plugin";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/plugin/config/resolve-options.js";
import type { CallReport } from "../../src/plugin/core/context/call-report.js";
import { hiddenExchanges } from "../../src/plugin/core/context/hidden-exchanges.js";
import { RECALL_TOKENS, renderRecall } from "../../src/plugin/core/context/render-recall.js";
import { estimateTokens } from "../../src/plugin/core/memory/estimate-tokens.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { isSettled, type Ledger, LedgerEntrySchema, noteRecall, settledTasks } from "../../src/plugin/core/routing/ledger.js";
import { createRecallAnswer, RECALL_TOOL } from "../../src/plugin/handlers/recall-answer.js";
import { recallToolGated } from "../../src/plugin/handlers/recall-tool-gate.js";
import { TASKS_TOOL } from "../../src/plugin/handlers/tasks-answer.js";
import { tasksToolGated } from "../../src/plugin/handlers/tasks-tool-gate.js";
import { createToolGate } from "../../src/plugin/handlers/tool-gate.js";
import { createRecallTool } from "../../src/plugin/hosts/opencode-1/server/recall-tool.js";
import { panelLines } from "../../src/plugin/session-views/panel-lines.js";
import { renderWhy } from "../../src/plugin/session-views/render-status.js";
import { createFailOpenGuard } from "../../src/plugin/sessions/fail-open-guard.js";
import { createSessionRouting } from "../../src/plugin/sessions/session-routing.js";
import type { SessionState } from "../../src/plugin/store/session-state-file.js";
import { lexicalRouter, THRESHOLD } from "../support/defaults.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger, sourceFor } from "../support/plugin-parts.js";
import { fixedStore, ledgerOf, stateOf } from "../support/routing.js";

const SESSION = "ses_recall";
// A fake key in the shape the redactor knows (the aux redaction tests use the same kind).
const API_KEY = "sk-live-4fK9xQ2mZ7pL1vB8nR3tY6wE0aS5dG2hJ9kL4zX7cV1bN8mQ";
const SLUG = "Add textkit/slugify.py with a slugify(text) function.";
const CSV = "Separate issue: quote CSV fields with commas in exporters/csv_export.py.";
const UNICODE = "Back to slugify: keep unicode letters.";
const CSV_AGAIN = "Back to the CSV exporter: also quote newlines.";

function user(
  id: string,
  text: string,
  parts: MessageWithParts["parts"] = [{ id: `prt_${id}`, sessionID: SESSION, messageID: id, type: "text", text }],
): MessageWithParts {
  return {
    info: { id, sessionID: SESSION, role: "user", time: { created: 0 }, agent: "build", model: { providerID: "prov", modelID: "mod" } },
    parts,
  } as MessageWithParts;
}

type Step = { text: string } | { tool: string; input: Record<string, unknown>; output?: string; error?: string };

function assistant(id: string, parentID: string, steps: readonly Step[], extra: { summary?: boolean } = {}): MessageWithParts {
  const parts = steps.map((step, index) => {
    const base = { id: `prt_${id}_${index}`, sessionID: SESSION, messageID: id };
    if ("text" in step) return { ...base, type: "text", text: step.text };
    const state =
      step.error === undefined
        ? { status: "completed", input: step.input, output: step.output ?? "", title: "", metadata: {}, time: { start: 0, end: 0 } }
        : { status: "error", input: step.input, error: step.error, time: { start: 0, end: 0 } };
    return { ...base, type: "tool", callID: `call_${id}_${index}`, tool: step.tool, state };
  });
  return {
    info: {
      id,
      sessionID: SESSION,
      role: "assistant",
      parentID,
      time: { created: 0 },
      modelID: "mod",
      providerID: "prov",
      mode: "build",
      agent: "build",
      path: { cwd: "/", root: "/" },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      ...extra,
    },
    parts,
  } as MessageWithParts;
}

/** Two tasks, interleaved; the last assistant message (a4) is the one calling the tool, answering u4 (t2). */
function history(): MessageWithParts[] {
  return [
    user("u1", SLUG),
    assistant("a1", "u1", [
      { tool: "write", input: { filePath: "textkit/slugify.py", content: "def slugify(text): ..." }, output: "Wrote file successfully." },
      { text: "Added slugify()." },
    ]),
    user("u2", CSV),
    assistant("a2", "u2", [
      { tool: "edit", input: { filePath: "exporters/csv_export.py", oldString: "a", newString: "b" }, output: "Edit applied successfully." },
      { text: "Quoted commas." },
    ]),
    user("u3", UNICODE),
    assistant("a3", "u3", [
      { tool: "bash", input: { command: "env | grep KEY", description: "Check the key" }, output: `OPENAI_API_KEY=${API_KEY}` },
      { tool: "edit", input: { filePath: "textkit/slugify.py" }, error: "oldString not found" },
      { text: "Unicode letters are kept now." },
    ]),
    user("u4", CSV_AGAIN),
    assistant("a4", "u4", [{ text: "Let me look at the other task." }]),
  ];
}
const LEDGER = ledgerOf([
  ["u1", "new:slugify"],
  ["u2", "new:csv export"],
  ["u3", "t1"],
  ["u4", "t2"],
]);

function report(requestID: string, groups: CallReport["groups"]): CallReport {
  return {
    messagesBefore: 8,
    messagesAfter: 4,
    groups,
    fallback: false,
    reason: "task t2",
    requestID,
    tokens: { native: 100, routingSaved: 50, memorySaved: 0 },
  };
}

function contextFor(messageID: string, sessionID = SESSION): ToolContext {
  return {
    sessionID,
    messageID,
    agent: "build",
    directory: "/work",
    worktree: "/work",
    abort: new AbortController().signal,
    metadata: () => undefined,
    ask: async () => undefined,
  };
}

/** The tool over a fixed state and history, with the plug-in's routing noting each use. */
function recallToolOver(state: SessionState, messages: MessageWithParts[]) {
  const store = fixedStore({ [state.sessionID]: state });
  const source = sourceFor({ [state.sessionID]: { messages } });
  const logger = recordingLogger();
  const routing = createSessionRouting({ store, router: lexicalRouter, source, logger, threshold: THRESHOLD });
  const recall = createRecallTool(createRecallAnswer({ store, source, routing, stateDir: "/nonexistent/rcm-state" }));
  return {
    store,
    routing,
    logger,
    run: (args: unknown, messageID = "a4", sessionID = SESSION) => recall.execute(args as never, contextFor(messageID, sessionID)) as Promise<string>,
  };
}

describe("what rcm_recall finds and how it reads", () => {
  it("finds the other task's exchanges the call left out, newest first, for the request the calling step answers", () => {
    const found = hiddenExchanges({ messages: history(), ledger: LEDGER, messageID: "a4", task: "t1" });
    if (found.kind !== "found") throw new Error(found.kind);
    expect(found.requestID).toBe("u4");
    expect(found.total).toBe(2);
    expect(found.hidden.map((exchange) => [exchange.number, exchange.digest.requestText])).toEqual([
      [2, UNICODE],
      [1, SLUG],
    ]);
  });

  it("renders requests, tool calls in brief (tool, main argument, clipped result or error) and the assistant's words, newest first", () => {
    const found = hiddenExchanges({ messages: history(), ledger: LEDGER, messageID: "a4", task: "t1" });
    if (found.kind !== "found") throw new Error(found.kind);
    const { text, exchanges } = renderRecall({ task: found.task, total: found.total, hidden: found.hidden });
    expect(exchanges).toBe(2);
    expect(text.indexOf(UNICODE)).toBeLessThan(text.indexOf(SLUG));
    expect(text).toContain('t1 "slugify": 2 exchanges of it left out of your context');
    expect(text).toContain(`[t1 exchange 2 of 2]\nUser: ${UNICODE}\n- bash env | grep KEY: OPENAI_API_KEY=`);
    expect(text).toContain("- edit textkit/slugify.py: error: oldString not found\nAssistant: Unicode letters are kept now.");
    expect(text).toContain("- write textkit/slugify.py: Wrote file successfully.\nAssistant: Added slugify().");
    expect(text).not.toContain("older exchange");
  });

  it("stays within its token budget: older exchanges are left out and counted, and a newest exchange too long alone is cut", () => {
    const messages: MessageWithParts[] = [];
    const entries: [string, string][] = [];
    for (let index = 0; index < 30; index += 1) {
      messages.push(user(`u${index}`, `Slugify step ${index}: ${"handle more separators ".repeat(20)}`));
      messages.push(
        assistant(`a${index}`, `u${index}`, [
          { tool: "bash", input: { command: `pytest -k step${index}` }, output: "passed ".repeat(100) },
          { text: "Done ".repeat(100) },
        ]),
      );
      entries.push([`u${index}`, index === 0 ? "new:slugify" : "t1"]);
    }
    messages.push(user("u_other", CSV), assistant("a_other", "u_other", [{ text: "Looking." }]));
    entries.push(["u_other", "new:csv"]);
    const found = hiddenExchanges({ messages, ledger: ledgerOf(entries), messageID: "a_other", task: "t1" });
    if (found.kind !== "found") throw new Error(found.kind);
    const { text, exchanges } = renderRecall({ task: found.task, total: found.total, hidden: found.hidden });
    expect(estimateTokens(text)).toBeLessThanOrEqual(RECALL_TOKENS);
    expect(exchanges).toBeGreaterThan(1);
    expect(exchanges).toBeLessThan(30);
    expect(text).toContain("Slugify step 29");
    expect(text).toContain(`(${30 - exchanges} older exchanges left out: about 2,000 tokens is the most one recall returns)`);

    const limited = renderRecall({ task: found.task, total: found.total, hidden: found.hidden, limit: 1 });
    expect(limited.exchanges).toBe(1);
    expect(limited.text).toContain("(29 older exchanges left out: the limit you gave)");

    const small = renderRecall({ task: found.task, total: found.total, hidden: found.hidden, maxTokens: 120 });
    expect(small.exchanges).toBe(1);
    expect(estimateTokens(small.text)).toBeLessThanOrEqual(120);
  });

  it("leaves out what the call showed: with the task kept in the call, only what a compaction took away", () => {
    const messages = history();
    const kept = report("u4", [{ label: "t1", kept: 2, dropped: 0, replaced: 0 }]);
    const inView = hiddenExchanges({ messages, ledger: LEDGER, messageID: "a4", task: "t1", lastCall: kept });
    expect(inView.kind === "found" && inView.hidden).toEqual([]);
    const found = inView.kind === "found" ? inView : undefined;
    expect(found && renderRecall({ task: found.task, total: found.total, hidden: found.hidden }).text).toBe(
      'Nothing of t1 "slugify" is hidden from you: its 2 exchanges are in your context.',
    );

    const compacted = [
      ...messages.slice(0, 4),
      user("c1", "", [{ id: "prt_c1", sessionID: SESSION, messageID: "c1", type: "compaction", auto: true } as MessageWithParts["parts"][number]]),
      assistant("c2", "c1", [{ text: "## Summary" }], { summary: true }),
      ...messages.slice(4),
    ];
    const afterCompaction = hiddenExchanges({
      messages: compacted,
      ledger: LEDGER,
      messageID: "a4",
      task: "t1",
      lastCall: report("u4", [{ label: "t1", kept: 1, dropped: 0, replaced: 0 }]),
    });
    expect(afterCompaction.kind === "found" && afterCompaction.hidden.map((exchange) => exchange.digest.requestText)).toEqual([SLUG]);
    // A report of another request says nothing about this call: everything of the task counts as hidden.
    const stale = hiddenExchanges({
      messages,
      ledger: LEDGER,
      messageID: "a4",
      task: "t1",
      lastCall: report("u2", [{ label: "t1", kept: 2, dropped: 0, replaced: 0 }]),
    });
    expect(stale.kind === "found" && stale.hidden).toHaveLength(2);
  });
});

describe("the rcm_recall tool", () => {
  it("returns the hidden task's history redacted as aux calls are, and notes the use on the request's decision", async () => {
    const { store, run } = recallToolOver(stateOf(SESSION, LEDGER), history());
    const text = await run({ task: "t1" });
    expect(text).toContain(UNICODE);
    expect(text).toContain("OPENAI_API_KEY=[REDACTED:");
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("sk-live-4fK9");
    const state = await store.read(SESSION);
    expect(state?.ledger.decisions.u4?.recalled).toEqual([{ task: "t1", exchanges: 2 }]);
    // A confident decision stays as it was.
    expect(state?.ledger.decisions.u4?.task).toBe("t2");
    expect(state?.ledger.decisions.u4?.relabelled).toBeUndefined();
  });

  it("says the current task is already in view, and lists the tasks for an unknown one, noting nothing", async () => {
    const { store, run } = recallToolOver(stateOf(SESSION, LEDGER), history());
    await expect(run({ task: "t2" })).rejects.toThrow("t2 is the task of the request you are answering: its history is already in your context");
    await expect(run({ task: "t9" })).rejects.toThrow('no task t9 in this session (tasks: t1 "slugify", t2 "csv export")');
    await expect(run({ task: "two" })).rejects.toThrow(/^rcm_recall: invalid arguments: task: /);
    await expect(run({ task: "t1", limit: 0 })).rejects.toThrow(/limit: /);
    await expect(run({ task: "t1", extra: true })).rejects.toThrow(/invalid arguments/);
    expect((await store.read(SESSION))?.ledger.decisions.u4?.recalled).toBeUndefined();
  });

  it("answers without reading anything in a sub-agent session or one switched off", async () => {
    const { run } = recallToolOver({ ...stateOf(SESSION, LEDGER), off: true }, history());
    expect(await run({ task: "t1" })).toMatch(/^opencode-rcm is off for this session: nothing is hidden/);
    expect(await run({ task: "t1" }, "a4", "ses_child")).toMatch(/^opencode-rcm does not track tasks in sub-agent sessions/);
  });

  it("settles an unsure request in the one task whose history the model recalled for it", async () => {
    const unsure = ledgerOf([
      ["u1", "new:slugify"],
      ["u2", "new:csv export"],
      ["u3", "t1"],
      ["u4", "t2", 0.4],
    ]);
    const { store, routing, logger, run } = recallToolOver(stateOf(SESSION, unsure), history());
    await run({ task: "t1", limit: 1 });
    const entry = (await store.read(SESSION))?.ledger.decisions.u4;
    expect(entry).toMatchObject({ task: "t1", recalled: [{ task: "t1", exchanges: 1 }], relabelled: { from: "t2", files: [], by: "recall" } });
    expect(entry?.reason).toMatch(/; then the model recalled t1's history$/);
    expect(entry && isSettled(entry, THRESHOLD)).toBe(true);
    expect(logger.lines).toEqual(["info: the model recalled t1's history: the unsure request is now settled in t1"]);
    // The index is built again from the ledger: the next request routes with t1 settled.
    expect((await routing.route(SESSION, "u5", "Back to slugify: strip leading hyphens."))?.task.id).toBe("t1");
  });
});

describe("noteRecall", () => {
  const unsure = (extra: Parameters<typeof ledgerOf>[0][number][3] = {}): Ledger =>
    ledgerOf([
      ["u1", "new:slugify"],
      ["u2", "new:csv"],
      ["u3", "new:docs"],
      ["u4", "t2", 0.4, extra],
    ]);

  it("notes every use, in order, and leaves a sure decision where it is", () => {
    let ledger = noteRecall(LEDGER, "u4", { task: "t1", exchanges: 2 }, THRESHOLD);
    ledger = noteRecall(ledger, "u4", { task: "t1", exchanges: 1 }, THRESHOLD);
    expect(ledger.decisions.u4).toEqual({
      ...LEDGER.decisions.u4,
      recalled: [
        { task: "t1", exchanges: 2 },
        { task: "t1", exchanges: 1 },
      ],
    });
    expect(LEDGER.decisions.u4?.recalled).toBeUndefined();
  });

  it("makes an unsure guess settled evidence for the one other task recalled, and unsure again once a second is", () => {
    const before = unsure();
    expect(settledTasks(before, THRESHOLD).has("t1")).toBe(true);
    const once = noteRecall(before, "u4", { task: "t1", exchanges: 3 }, THRESHOLD);
    const entry = once.decisions.u4;
    expect(entry).toMatchObject({ task: "t1", opened: false, relabelled: { from: "t2", by: "recall" } });
    expect(entry && isSettled(entry, THRESHOLD)).toBe(true);
    // Recalling the task it was first routed to changes nothing.
    const back = noteRecall(once, "u4", { task: "t2", exchanges: 1 }, THRESHOLD).decisions.u4;
    expect(back && isSettled(back, THRESHOLD)).toBe(true);
    const twice = noteRecall(once, "u4", { task: "t3", exchanges: 1 }, THRESHOLD).decisions.u4;
    expect(twice?.task).toBe("t1");
    expect(twice?.reason).toMatch(/then the model recalled t1's history; then t3's too, so it is unsure again$/);
    expect(twice && isSettled(twice, THRESHOLD)).toBe(false);
  });

  it("settles nothing when the recall found nothing hidden: the model had that history in view already", () => {
    const entry = noteRecall(unsure(), "u4", { task: "t1", exchanges: 0 }, THRESHOLD).decisions.u4;
    expect(entry).toMatchObject({ task: "t2", recalled: [{ task: "t1", exchanges: 0 }] });
    expect(entry && isSettled(entry, THRESHOLD)).toBe(false);
  });

  it("settles nothing for a request that opened its task or a rule for every task", () => {
    const opened = ledgerOf([
      ["u1", "new:slugify"],
      ["u2", "new:csv", 0.4],
    ]);
    expect(noteRecall(opened, "u2", { task: "t1", exchanges: 1 }, THRESHOLD).decisions.u2).toMatchObject({
      task: "t2",
      recalled: [{ task: "t1", exchanges: 1 }],
    });
    const shared = noteRecall(unsure({ shared: true }), "u4", { task: "t1", exchanges: 1 }, THRESHOLD).decisions.u4;
    expect(shared?.task).toBe("t2");
    expect(shared?.relabelled).toBeUndefined();
  });

  it("throws for a request never routed or a task the ledger does not have", () => {
    expect(() => noteRecall(LEDGER, "u9", { task: "t1", exchanges: 1 }, THRESHOLD)).toThrow("never routed");
    expect(() => noteRecall(LEDGER, "u4", { task: "t9", exchanges: 1 }, THRESHOLD)).toThrow("unknown task t9");
  });

  it("reads decisions stored before recalls existed", () => {
    const stored = {
      task: "t1",
      opened: true,
      confidence: 0.9,
      related: [],
      shared: false,
      reason: "x",
      router: "lexical",
      relabelled: { from: "t2", files: ["a.py"] },
    };
    expect(LedgerEntrySchema.parse(stored)).toEqual(stored);
    expect(isSettled(LedgerEntrySchema.parse(stored), THRESHOLD)).toBe(true);
  });
});

describe("the rcm_recall gate", () => {
  const fixture = () => structuredClone(mainSession("two-tasks-with-tool-error"));
  const sessionOf = (messages: readonly MessageWithParts[]) => messages[0]?.info.sessionID ?? "";
  const offered = (messages: readonly MessageWithParts[], name: string) =>
    messages.filter((message) => message.info.role === "user").every((message) => message.info.role === "user" && message.info.tools?.[name] !== false);

  async function gate(messages: MessageWithParts[], states: Record<string, SessionState>, tools = [recallToolGated()]) {
    await createToolGate({ store: fixedStore(states), guard: createFailOpenGuard(recordingLogger()), tools })(messages);
    return messages;
  }
  const withLedger = (messages: readonly MessageWithParts[], ledger: Ledger, extra: Partial<SessionState> = {}) => ({
    [sessionOf(messages)]: { ...stateOf(sessionOf(messages), ledger), ...extra },
  });

  it("goes only from hidden to offered as a session opens tasks, whatever each later request's confidence", async () => {
    const ledgers = [
      ledgerOf([["msg_1", "new:one"]]),
      ledgerOf([
        ["msg_1", "new:one"],
        ["msg_2", "t1"],
      ]),
      ledgerOf([
        ["msg_1", "new:one"],
        ["msg_2", "t1"],
        ["msg_3", "new:two"],
      ]),
      ledgerOf([
        ["msg_1", "new:one"],
        ["msg_2", "t1"],
        ["msg_3", "new:two"],
        ["msg_4", "t1", 0.3],
      ]),
      ledgerOf([
        ["msg_1", "new:one"],
        ["msg_2", "t1"],
        ["msg_3", "new:two"],
        ["msg_4", "t1", 0.3],
        ["msg_5", "new:three"],
      ]),
    ];
    const decisions: boolean[] = [];
    for (const ledger of ledgers) {
      const messages = fixture();
      decisions.push(offered(await gate(messages, withLedger(messages, ledger)), RECALL_TOOL));
    }
    expect(decisions).toEqual([false, false, true, true, true]);
  });

  it("hides it in a session switched off and in a sub-agent session; a call of it in the history keeps it", async () => {
    const two = ledgerOf([
      ["msg_1", "new:one"],
      ["msg_2", "new:two"],
    ]);
    const off = fixture();
    expect(offered(await gate(off, withLedger(off, two, { off: true })), RECALL_TOOL)).toBe(false);
    const child = fixture();
    expect(offered(await gate(child, {}), RECALL_TOOL)).toBe(false);
    const called = fixture();
    const part = called.flatMap((message) => message.parts).find((candidate) => candidate.type === "tool");
    if (part?.type !== "tool") throw new Error("the fixture has no tool call");
    part.tool = RECALL_TOOL;
    const before = structuredClone(called);
    expect(await gate(called, withLedger(called, ledgerOf([["msg_1", "new:one"]])))).toEqual(before);
  });

  it("decides for both tools in one pass: each by its own rule, other switches kept", async () => {
    const tools = [tasksToolGated({ afterCompactionOnly: false }), recallToolGated()];
    const one = fixture();
    const users = one.filter((message) => message.info.role === "user");
    const first = users[0]?.info;
    if (first?.role === "user") first.tools = { webfetch: false };
    await gate(one, withLedger(one, ledgerOf([["msg_1", "new:one"]])), tools);
    expect(first?.role === "user" && first.tools).toEqual({ webfetch: false, [TASKS_TOOL]: false, [RECALL_TOOL]: false });
    const off = fixture();
    await gate(
      off,
      withLedger(
        off,
        ledgerOf([
          ["msg_1", "new:one"],
          ["msg_2", "new:two"],
        ]),
        { off: true },
      ),
      tools,
    );
    // While the user has it off, neither is offered.
    expect([offered(off, TASKS_TOOL), offered(off, RECALL_TOOL)]).toEqual([false, false]);
  });
});

describe("where a recall shows", () => {
  const options = resolveOptions([]).options;
  const recalled = noteRecall(noteRecall(LEDGER, "u4", { task: "t1", exchanges: 2 }, THRESHOLD), "u4", { task: "t1", exchanges: 1 }, THRESHOLD);
  const state: SessionState = {
    ...stateOf(SESSION, recalled),
    lastCall: report("u4", [
      { label: "t2", kept: 2, dropped: 0, replaced: 0 },
      { label: "t1", kept: 0, dropped: 2, replaced: 0 },
    ]),
  };

  it("the panel has a line for the last request's recalls", () => {
    const lines = panelLines({ settings: { ...options, mode: "router" }, state, pending: 0, problems: [], width: 40 }).map((line) => line.text);
    expect(lines).toContain("Model recalled t1 (3 exchanges)");
    expect(
      panelLines({ settings: { ...options, mode: "router" }, state: stateOf(SESSION, LEDGER), pending: 0, problems: [], width: 40 }).some((line) =>
        line.text.startsWith("Model recalled"),
      ),
    ).toBe(false);
  });

  it("/rcm why says what the model recalled for the call's request, and a request it settled", () => {
    expect(renderWhy({ ...options, mode: "router" }, state.lastCall, state)).toContain("  The model recalled hidden history with rcm_recall: t1 (3 exchanges)");
    const unsure = noteRecall(
      ledgerOf([
        ["u1", "new:slugify"],
        ["u2", "new:csv"],
        ["u3", "t1"],
        ["u4", "t2", 0.4],
      ]),
      "u4",
      { task: "t1", exchanges: 2 },
      THRESHOLD,
    );
    const why = renderWhy({ ...options, mode: "router" }, state.lastCall, { ...state, ledger: unsure });
    expect(why).toContain("t1 (2 exchanges); routed unsurely to t2, it now counts for t1");
    expect(why).toContain(
      "Relabelled by their edits or the model's recalls (1; later routing and memory follow them):\n  request 4: routed to t2, now t1 (the model recalled t1's history)",
    );
  });
});
