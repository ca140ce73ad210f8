import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, OptionsSchema } from "../../src/plugin/config/options-schema.js";
import { namesThisPackage, pluginTupleOptions } from "../../src/plugin/config/plugin-tuple.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import { emptyLedger, type Ledger, moveRequest, recordDecision } from "../../src/plugin/core/routing/ledger.js";
import { panelLines } from "../../src/plugin/session-views/panel-lines.js";
import { NO_SAVINGS, type SessionState } from "../../src/plugin/store/session-state-file.js";

const decide = (
  ledger: Ledger,
  id: string,
  target: { kind: "new"; title: string } | { kind: "task"; task: string },
  confidence: number,
  reason = "named its file src/a.py",
) => recordDecision(ledger, id, { target, confidence, related: [], shared: false, reason, router: "lexical", basis: "content" }).ledger;

function threeTasks(): Ledger {
  let ledger = decide(emptyLedger(), "m1", { kind: "new", title: "Fix the date parser in src/dates.py" }, 1, "first request of the session");
  ledger = decide(ledger, "m2", { kind: "new", title: "New task: add a --json flag to the command line" }, 0.95, "says it starts a new task");
  ledger = decide(ledger, "m3", { kind: "task", task: "t1" }, 0.92);
  return decide(
    ledger,
    "m4",
    { kind: "new", title: "The install guide is out of date" },
    0.61,
    "names no task and brings words no task used: may be a new task",
  );
}

const state = (ledger: Ledger, extra: Partial<SessionState> = {}): SessionState => ({
  sessionID: "ses_1",
  ledger,
  records: {},
  memoryUpdates: [],
  off: false,
  saved: NO_SAVINGS,
  ...extra,
});
const settings = DEFAULT_OPTIONS;
/** A line as the sidebar sets it: indented by its box. */
const shown = (line: { text: string; indent?: number }) => `${" ".repeat(line.indent ?? 0)}${line.text}`;

describe("the TUI's task panel", () => {
  it("lists the tasks with the current one marked, the last decision in words and why the full history was kept", () => {
    const lines = panelLines({ settings, state: state(threeTasks()), pending: 0, problems: [], width: 36 }).map(shown);
    expect(lines).toEqual([
      "RCM · full",
      "  t1 Fix the date parser in src/dat…",
      "    suspended · #1 #3 · 1 req ago",
      "  t2 Add a --json flag to the comma…",
      "    suspended · #2 · 2 reqs ago",
      "▶ t3 The install guide is out of da…",
      "    current · #4 · latest request",
      "Last request: opened t3",
      "  61% sure it is a new task",
      "  names no task and brings words no task used: may be a new task",
      "  full history: under 80% sure",
      "Memory of t3: written when its first turn ends",
      "Saved ~0 tokens in 0 calls",
    ]);
  });

  it("says which tasks an unsure decision kept with fallback candidates, and the full history when it kept them all", () => {
    const unsure = recordDecision(threeTasks(), "m5", {
      target: { kind: "task", task: "t1" },
      confidence: 0.6,
      related: [],
      shared: false,
      reason: "names no task for sure: may not be t1",
      router: "lexical",
      basis: "content",
      candidates: ["t1", "t3"],
    }).ledger;
    const candidates = { ...settings, fallback: "candidates" as const };
    const lines = (options: typeof settings) => panelLines({ settings: options, state: state(unsure), pending: 0, problems: [], width: 36 }).map(shown);
    expect(lines(candidates)).toContain("  unsure: t1, t3 kept");
    expect(lines(settings)).toContain("  full history: under 80% sure");
    const all = recordDecision(threeTasks(), "m5", {
      target: { kind: "task", task: "t1" },
      confidence: 0.6,
      related: [],
      shared: false,
      reason: "r",
      router: "lexical",
      basis: "content",
      candidates: ["t1", "t2", "t3"],
    }).ledger;
    expect(panelLines({ settings: candidates, state: state(all), pending: 0, problems: [], width: 36 }).map(shown)).toContain("  full history: under 80% sure");
  });

  it("shows the current task's memory record: its asks with their requests first, the rest a command away", () => {
    const rules = ["It must lowercase the text", "join words with hyphens", "keep unicode letters", "no new dependencies"];
    const record: TaskRecord = {
      version: RECORD_VERSION,
      task: "t3",
      goal: "Update the install guide",
      constraints: rules.map((text, n) => ({ id: `c${n + 1}`, text, sources: ["m4"] })),
      progress: [{ text: "rewrote INSTALL.md", sources: ["m4"] }],
      pending: [],
      files: [],
      uncertainties: [],
      coverage: { through: "m4", groups: ["m4"] },
      lastUpdate: { updater: "extractive", groups: 1, notes: [] },
    };
    const lines = panelLines({ settings, state: state(threeTasks(), { records: { t3: record } }), pending: 0, problems: [], width: 36 }).map(shown);
    expect(lines.slice(lines.indexOf("Memory of t3: 4 asks, 0 pending"), -1)).toEqual([
      "Memory of t3: 4 asks, 0 pending",
      "  no call has used it yet",
      "  • #4 It must lowercase the text",
      "  • #4 join words with hyphens",
      "  • #4 keep unicode letters",
      "  +1 more: /rcm show t3",
    ]);
    const router = panelLines({
      settings: { ...settings, mode: "router" },
      state: state(threeTasks(), { records: { t3: record } }),
      pending: 0,
      problems: [],
      width: 36,
    });
    expect(router.some((line) => line.text.startsWith("Memory of"))).toBe(false);
  });

  it("says what the last call kept, left out and replaced, what you moved, what waits, and an option's problem", () => {
    const moved = moveRequest(threeTasks(), "m4", { kind: "task", task: "t2" }).ledger;
    const lastCall = {
      messagesBefore: 12,
      messagesAfter: 5,
      groups: [
        { label: "t2", kept: 1, dropped: 0, replaced: 1 },
        { label: "t1", kept: 0, dropped: 2, replaced: 0 },
      ],
      fallback: false,
      reason: "task t2",
      task: "t2",
      confidence: 1,
      requestID: "m4",
      tokens: { native: 4000, routingSaved: 2500, memorySaved: 300 },
    };
    const lines = panelLines({
      settings,
      state: state(moved, { lastCall, saved: { calls: 9, routingTokens: 11_800, memoryTokens: 500 } }),
      pending: 1,
      problems: ["~/.config/opencode/rcm.jsonc:3: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored"],
      width: 36,
    }).map(shown);
    expect(lines[1]).toBe("1 config problem: /rcm status");
    expect(lines).toContain("Last request: t2, you moved it");
    expect(lines).toContain("  the model gets only t2's history");
    // The call answered m4 before the user moved it: the panel says so rather than contradict the line above.
    expect(lines).toContain("Call before the move: kept t2 1");
    expect(lines).toContain("  left out t1 2");
    expect(lines).toContain("  replaced by a record: t2 1");
    expect(lines).toContain("Saved ~12.3k tokens in 9 calls");
    expect(lines.at(-1)).toBe("1 change waiting for the next request");
  });

  it("keeps five config problems to one line, so the decision, the last call and the savings stay on screen", () => {
    const problems = Array.from(
      { length: 5 },
      (_, index) => `~/.config/opencode/rcm.jsonc:${index + 2}: invalid confidenceThreshold = 2: too big; using the default 0.8`,
    );
    const lines = panelLines({ settings, state: state(threeTasks()), pending: 0, problems, width: 36 }).map(shown);
    expect(lines.filter((line) => line.includes("config problem"))).toEqual(["5 config problems: /rcm status"]);
    expect(lines.slice(0, 2)).toEqual(["RCM · full", "5 config problems: /rcm status"]);
    expect(lines).toContain("Saved ~0 tokens in 0 calls");
  });

  it("shows 0.797 under an 80% threshold as 79.7%, never as 80% beside 'under 80%'", () => {
    let ledger = decide(emptyLedger(), "m1", { kind: "new", title: "Fix the date parser" }, 1);
    ledger = decide(ledger, "m2", { kind: "new", title: "Add a --json flag" }, 0.95);
    ledger = decide(ledger, "m3", { kind: "task", task: "t1" }, 0.797);
    const lines = panelLines({ settings, state: state(ledger), pending: 0, problems: [], width: 36 }).map(shown);
    expect(lines).toContain("Last request: t1, 79.7% sure");
    expect(lines).toContain("  full history: under 80% sure");
  });

  it("after /rcm off and a request, says no decision was made for it instead of showing the earlier one as the last", () => {
    const lines = panelLines({
      settings,
      state: state(threeTasks(), { off: true, whileOff: [{ messageID: "m5", text: "more" }] }),
      pending: 0,
      problems: [],
      width: 36,
    }).map(shown);
    expect(lines).toContain("Latest request: no decision (off)");
    expect(lines.some((line) => line.startsWith("Last request"))).toBe(false);
    expect(lines).not.toContain("    current · #4 · latest request");
    expect(lines).toContain("    current · #4 · 1 req ago");
  });

  it("says when it is off, in native mode, or has no task yet", () => {
    expect(panelLines({ settings, state: state(threeTasks(), { off: true }), pending: 0, problems: [], width: 36 })[0]?.text).toBe("RCM · full · OFF");
    expect(panelLines({ settings: OptionsSchema.parse({ mode: "native" }), state: undefined, pending: 0, problems: [], width: 36 }).map(shown)).toEqual([
      "RCM · native",
      "native mode: changes nothing",
    ]);
    expect(panelLines({ settings, state: state(emptyLedger()), pending: 0, problems: [], width: 36 }).map(shown)).toEqual([
      "RCM · full",
      "No tasks yet: the first request opens t1.",
    ]);
  });
});

describe("our entry in OpenCode's plug-in list, as the TUI part finds its options", () => {
  it("is the npm name, a path to the package or into it, or its file URL; nothing else", () => {
    const root = "/home/me/.npm-global/lib/node_modules/opencode-rcm";
    expect(namesThisPackage("opencode-rcm", root)).toBe(true);
    expect(namesThisPackage("opencode-rcm@0.1.0", root)).toBe(true);
    expect(namesThisPackage(root, root)).toBe(true);
    expect(namesThisPackage(`file://${root}/dist/plugin/index.js`, root)).toBe(true);
    expect(namesThisPackage("/work/checkout", "/work/checkout")).toBe(true);
    expect(namesThisPackage("opencode-rcm-extra", root)).toBe(false);
    expect(namesThisPackage("/home/me/other-plugin", root)).toBe(false);
    expect(namesThisPackage("./node_modules/opencode-rcm", root)).toBe(false);
    expect(pluginTupleOptions(["other", ["file:///work/checkout", { mode: "router" }]], "/work/checkout")).toEqual({ mode: "router" });
    expect(pluginTupleOptions([["other", { mode: "memory" }]], "/work/checkout")).toBeUndefined();
  });
});

describe("the panel's line about earlier sessions", () => {
  const input = { settings, pending: 0, problems: [], width: 36 };
  const line = "2 unfinished tasks in earlier sessions: opencode-rcm tasks --all";

  it("says how many unfinished tasks earlier sessions left, in a new session and in one with tasks", () => {
    expect(panelLines({ ...input, state: undefined, earlierUnfinished: 2 }).map((shown) => shown.text)).toEqual([
      "RCM · full",
      line,
      "No tasks yet: the first request opens t1.",
    ]);
    expect(panelLines({ ...input, state: state(threeTasks()), earlierUnfinished: 2 }).filter((shown) => shown.text === line)).toHaveLength(1);
    expect(panelLines({ ...input, state: undefined, earlierUnfinished: 1 })[1]?.text).toBe("1 unfinished task in earlier sessions: opencode-rcm tasks --all");
  });

  it("warns, in one line, of unreadable state files it skipped", () => {
    const shown = panelLines({ ...input, state: undefined, earlierUnfinished: 1, earlierUnreadable: 2 });
    expect(shown.slice(1, 3)).toEqual([
      { text: "1 unfinished task in earlier sessions: opencode-rcm tasks --all", tone: "muted" },
      { text: "2 unreadable state files skipped: opencode-rcm tasks --all names them", tone: "warning" },
    ]);
    expect(panelLines({ ...input, state: undefined, earlierUnreadable: 0 }).some((line) => line.text.includes("unreadable"))).toBe(false);
  });

  it("says nothing when there are none, or in native mode", () => {
    for (const earlierUnfinished of [0, undefined]) {
      expect(panelLines({ ...input, state: state(threeTasks()), earlierUnfinished }).some((shown) => shown.text.includes("earlier sessions"))).toBe(false);
    }
    const native = OptionsSchema.parse({ mode: "native" });
    expect(panelLines({ ...input, settings: native, state: undefined, earlierUnfinished: 3 }).some((shown) => shown.text.includes("earlier"))).toBe(false);
  });
});
