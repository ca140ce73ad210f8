import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { emptyLedger, type Ledger, recordDecision, resumeTask } from "../../src/plugin/core/routing/ledger.js";
import { earlierListText, markChoices, pickEarlier, resumeChoices, resumedOrigin, resumeNeedsMemory } from "../../src/plugin/session-views/earlier-tasks.js";
import { panelLines } from "../../src/plugin/session-views/panel-lines.js";
import { rcmVerb } from "../../src/plugin/session-views/rcm-verbs.js";
import { renderStatus, renderWhy } from "../../src/plugin/session-views/render-status.js";
import { offerToast, requestToast } from "../../src/plugin/session-views/toasts.js";
import { NO_SAVINGS, type ResumeOffer, type SessionState } from "../../src/plugin/store/session-state-file.js";
import type { UnfinishedTask } from "../../src/plugin/store/unfinished-tasks.js";

// The surfaces of resuming an earlier session's task: the verbs' choices, the panel, the toasts, /rcm status and why.
const NOW = new Date("2026-12-06T08:00:00Z");
const DAY = 86_400_000;
const SESSION = "ses_here";
const A = "ses_aaaa1111";
const B = "ses_bbbb2222";

const earlier: UnfinishedTask[] = [
  {
    sessionID: A,
    sessionTitle: "Exporter fixes",
    taskId: "t2",
    taskTitle: "Add a --json flag to the exporter",
    lastActive: new Date(NOW.getTime() - 2 * DAY),
    pending: 3,
    allDone: false,
  },
  {
    sessionID: B,
    sessionTitle: undefined,
    taskId: "t2",
    taskTitle: "Document the flags",
    lastActive: new Date(NOW.getTime() - 3 * DAY),
    pending: 0,
    allDone: false,
  },
  {
    sessionID: A,
    sessionTitle: "Exporter fixes",
    taskId: "t1",
    taskTitle: "Quote commas in CSV",
    lastActive: new Date(NOW.getTime() - 4 * DAY),
    pending: 1,
    allDone: false,
    takenBy: "ses_other/t1",
  },
];

const decide = (ledger: Ledger, id: string, title: string) =>
  recordDecision(ledger, id, {
    target: { kind: "new", title },
    confidence: 0.95,
    related: [],
    shared: false,
    reason: "says it starts a new task",
    router: "lexical",
    basis: "content",
  }).ledger;

const from = {
  session: A,
  task: "t2",
  sessionTitle: "Exporter fixes",
  lastActive: new Date(NOW.getTime() - 2 * DAY).toISOString(),
  pending: 3,
};

/** This session: one task of its own (t1), then A's t2 resumed with /rcm resume, no request of it yet. */
function resumedByUser(): SessionState {
  const ledger = decide(emptyLedger(), "m1", "Fix the install guide");
  const resumed = resumeTask(ledger, { from: { ...from, by: "user" }, title: "Add a --json flag to the exporter", confidence: 1, reason: "user" });
  return { sessionID: SESSION, ledger: resumed.ledger, records: {}, memoryUpdates: [], off: false, saved: NO_SAVINGS };
}

const offer: ResumeOffer = {
  messageID: "m1",
  session: A,
  task: "t2",
  title: "Add a --json flag to the exporter",
  sessionTitle: "Exporter fixes",
  lastActive: from.lastActive,
  why: "shares the words json flag",
};

describe("picking an earlier session's task", () => {
  const resume = rcmVerb("resume");
  const done = rcmVerb("done");
  if (resume?.kind !== "change" || done?.kind !== "mark") throw new Error("resume changes, done marks");
  const context = { sessionID: SESSION, earlier };

  it("by its number, <session>/<task> (a unique start of the id), or its id when unambiguous or offered; never a taken one", () => {
    expect(resume.intent(undefined, ["1"], context)).toEqual({ kind: "resume", key: `${A}/t2` });
    expect(resume.intent(undefined, ["ses_bbbb/t2"], context)).toEqual({ kind: "resume", key: `${B}/t2` });
    expect(resume.intent(undefined, ["t2"], context)).toMatchObject({ problem: expect.stringMatching(/^t2 is a task of several earlier sessions/) });
    // The latest request offered A's t2: `/rcm resume t2`, as the panel says, takes that one.
    const offered = { ...resumedByUser(), resumeOffer: offer };
    expect(resume.intent(offered, ["t2"], context)).toEqual({ kind: "resume", key: `${A}/t2` });
    expect(resume.intent(undefined, ["3"], context)).toEqual({ problem: `${A}/t1 is taken: session ses_other/t1 resumed it (it goes on there)` });
    expect(resume.intent(undefined, ["9"], context)).toEqual({ problem: "no task 9 in the list: it has 1 to 3" });
    expect(resume.intent(undefined, [], context)).toMatchObject({ problem: expect.stringContaining("which task?") });
  });

  it("lists them numbered with session, age and pending asks; a taken one says who took it and cannot be picked in a menu", () => {
    expect(earlierListText(earlier, NOW, "/rcm resume <n> resumes one here").split("\n")).toEqual([
      "Unfinished tasks of earlier sessions (most recently active first; /rcm resume <n> resumes one here):",
      `  1. t2 Add a --json flag to the exporter · "Exporter fixes" · 2 days ago · 3 pending  [${A}/t2]`,
      `  2. t2 Document the flags · session ${B} · 3 days ago · 0 pending  [${B}/t2]`,
      `  3. t1 Quote commas in CSV · "Exporter fixes" · 4 days ago · taken by ses_other/t1  [${A}/t1]`,
    ]);
    expect(resumeChoices(earlier, NOW).map((row) => [row.value, row.disabled ?? false])).toEqual([
      [`${A}/t2`, false],
      [`${B}/t2`, false],
      [`${A}/t1`, true],
    ]);
    expect(earlierListText([], NOW, "")).toMatch(/^No unfinished task in an earlier session/);
  });

  it("never picks a task whose session another running OpenCode has in use, and says so", () => {
    const inUse: UnfinishedTask[] = [{ ...(earlier[0] as UnfinishedTask), inUseBy: 4242 }];
    expect(resumeChoices(inUse, NOW)[0]).toMatchObject({ disabled: true, description: expect.stringContaining("in use in another OpenCode (pid 4242)") });
    expect(pickEarlier(inUse, "1")).toEqual({ problem: `${A}/t2 is in use: its session is open in another OpenCode of this project (pid 4242); go on there` });
    expect(pickEarlier(inUse, "t2")).toMatchObject({ problem: expect.stringContaining("no unfinished task t2") });
  });

  it("done and drop: t2 is this session's, a number or <session>/<task> an earlier one's", () => {
    const state = resumedByUser();
    expect(done.target(state, ["t1"], context)).toEqual({ sessionID: SESSION, taskId: "t1", title: "Fix the install guide", earlier: false });
    expect(done.target(state, ["2"], context)).toEqual({ sessionID: B, taskId: "t2", title: "Document the flags", earlier: true });
    expect(done.target(state, ["t7"], context)).toMatchObject({ problem: expect.stringMatching(/^no task t7 in this session \(its tasks: t1, t2\)/) });
    expect(done.target(state, ["3"], context)).toMatchObject({ problem: expect.stringContaining("is taken") });
    expect(markChoices(state, earlier, NOW).map((row) => row.value)).toEqual(["t1", "t2", `${A}/t2`, `${B}/t2`]);
  });

  it("says plainly that resuming needs memory", () => {
    expect(resumeNeedsMemory("full")).toBeUndefined();
    expect(resumeNeedsMemory("router")).toMatch(/needs modes memory or full/);
    expect(resumeNeedsMemory("native")).toMatch(/mode native keeps none/);
  });
});

describe("the panel", () => {
  it("shows a resumed task (current until the next request) with where it came from", () => {
    const lines = panelLines({ settings: DEFAULT_OPTIONS, state: resumedByUser(), pending: 0, problems: [], width: 36, now: NOW }).map((line) => line.text);
    const at = lines.indexOf("▶ t2 Add a --json flag to the expor…");
    expect(at, lines.join("\n")).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe("current · 0 reqs · no requests");
    expect(lines[at + 2]).toBe('from "Exporter fixes" · 2 days ago · 3 pending');
    expect(lines).toContain("  t1 Fix the install guide");
  });

  it("offers the task the latest request pointed to, in one line, while that request is the latest", () => {
    const ledger = decide(emptyLedger(), "m1", "Fix the install guide");
    const base: SessionState = { sessionID: SESSION, ledger, records: {}, memoryUpdates: [], off: false, saved: NO_SAVINGS };
    const line = 'Resume t2 of "Exporter fixes"? /rcm resume t2';
    const input = { settings: DEFAULT_OPTIONS, pending: 0, problems: [], width: 36, now: NOW, earlierUnfinished: 2 };
    const shown = panelLines({ ...input, state: { ...base, resumeOffer: offer } }).map((entry) => entry.text);
    expect(shown.filter((text) => text === line)).toHaveLength(1);
    expect(shown).toContain("2 unfinished tasks in earlier sessions: opencode-rcm tasks --all");
    const later = { ...base, ledger: decide(ledger, "m2", "Something else"), resumeOffer: offer };
    expect(panelLines({ ...input, state: later }).map((entry) => entry.text)).not.toContain(line);
  });

  it("says an origin in few words", () => {
    expect(resumedOrigin({ ...from, sessionTitle: undefined, by: "router" }, NOW)).toBe(`from session ${A} · 2 days ago · 3 pending`);
  });
});

describe("the toasts", () => {
  it("on a resumption: which task, from which session, how long ago, and that its record goes with this request", () => {
    const resumed = resumeTask(emptyLedger(), {
      from: { ...from, by: "router" },
      title: "Add a --json flag to the exporter",
      messageID: "m1",
      confidence: 0.92,
      reason: "resumes t2",
    });
    if (!resumed.entry) throw new Error("a request resumed it");
    expect(
      requestToast({ entry: resumed.entry, task: resumed.task, previous: undefined, threshold: 0.8, ledger: resumed.ledger, messageID: "m1", now: NOW }),
    ).toEqual({
      title: "RCM: resumed t2",
      message: 'Resumed t2 "Add a --json flag to the exporter" from "Exporter fixes" (2 days ago): its record goes with this request',
      variant: "info",
    });
  });

  it("on an offer: the command that takes it up, on the surface's terms", () => {
    expect(offerToast(offer)).toEqual({
      title: 'RCM: resume "Add a --json flag to the exporter"?',
      message: 'Resume t2 of "Exporter fixes"? /rcm resume t2',
      variant: "info",
    });
    const ledger = decide(emptyLedger(), "m1", "Fix the install guide");
    const task = ledger.tasks[0];
    const entry = ledger.decisions.m1;
    if (!task || !entry) throw new Error("one task");
    const toast = requestToast({ entry, task, previous: undefined, threshold: 0.8, ledger, messageID: "m1", offer, resumeCommand: "/rcm-text resume" });
    expect(toast?.message).toBe('Resume t2 of "Exporter fixes"? /rcm-text resume t2');
    // Another request's offer is old news: the decision's own toast (none for a session's first task).
    expect(requestToast({ entry, task, previous: undefined, threshold: 0.8, ledger, messageID: "m1", offer: { ...offer, messageID: "m0" } })).toBeUndefined();
  });
});

describe("/rcm status and why", () => {
  it("say where a resumed task came from, and what the last call carried from there", () => {
    const state = resumedByUser();
    const lastActive = new Date(Date.now() - 2 * DAY).toISOString();
    const resumedAgo = resumeTask(state.ledger, { from: { ...from, lastActive, by: "user" }, title: "x", confidence: 1, reason: "user" });
    const withAge: SessionState = {
      ...state,
      ledger: { ...state.ledger, tasks: state.ledger.tasks.map((task) => (task.resumed ? { ...task, resumed: { ...task.resumed, lastActive } } : task)) },
    };
    expect(resumedAgo.task.id).toBe("t3");
    const options = { ...DEFAULT_OPTIONS };
    expect(renderStatus(options, withAge)).toContain('  t2 goes on from "Exporter fixes", last worked on there 2 days ago, 3 pending then; you resumed it.');
    const why = renderWhy(
      options,
      {
        messagesBefore: 2,
        messagesAfter: 3,
        groups: [],
        fallback: false,
        reason: "task t2",
        task: "t2",
        confidence: 1,
        resumed: ["t2"],
        tokens: { native: 100, routingSaved: 0, memorySaved: 0 },
      },
      withAge,
    );
    expect(why).toContain(`  Carried t2's record from "Exporter fixes".`);
    expect(why).toContain('  t2 goes on from "Exporter fixes", last worked on there 2 days ago, 3 pending then; you resumed it.');
  });
});
