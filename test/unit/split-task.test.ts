import { describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import { RECORD_OPEN } from "../../src/plugin/core/memory/render-record.js";
import { SEED_REQUEST_OPEN, splitSeed, taskRequestTexts, unsureRequestNumbers } from "../../src/plugin/core/memory/split-seed.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { LedgerSchema, markSplit } from "../../src/plugin/core/routing/ledger.js";
import { routeRequest } from "../../src/plugin/core/routing/route-request.js";
import { TaskIndex } from "../../src/plugin/core/routing/task-index.js";
import { rcmVerb } from "../../src/plugin/session-views/rcm-verbs.js";
import { renderTaskTable, taskRows } from "../../src/plugin/session-views/render-status.js";
import { SessionIntentSchema } from "../../src/plugin/store/session-inbox.js";
import { lexicalRouter, RECORD_TOKENS, THRESHOLD } from "../support/defaults.js";
import { ledgerOf, stateOf } from "../support/routing.js";

const REQUESTS = {
  slug: "Add textkit/slugify.py with a slugify(text) function.\nIt must lowercase the text.",
  csv: "Separate issue: the CSV exporter in exporters/csv_export.py must quote fields with commas.",
  slugAgain: "Back to slugify in textkit/slugify.py: keep unicode letters.",
};

function user(id: string, text: string, part: { synthetic?: boolean; ignored?: boolean } = {}): MessageWithParts {
  return {
    info: { id, sessionID: "ses_old", role: "user", time: { created: 0 }, agent: "build", model: { providerID: "p", modelID: "m" } },
    parts: [{ id: `prt_${id}`, sessionID: "ses_old", messageID: id, type: "text", text, ...part }],
  } as MessageWithParts;
}

const ledger = ledgerOf([
  ["u1", "new:Add slugify"],
  ["u2", "new:Quote CSV fields"],
  ["u3", "t1"],
]);
const messages = [
  user("u1", REQUESTS.slug),
  user("u2", REQUESTS.csv),
  user("answer", "/rcm-text status\n...", { ignored: true }),
  user("u3", REQUESTS.slugAgain),
];

function record(task: string): TaskRecord {
  return {
    version: RECORD_VERSION,
    task,
    goal: "A slugify(text) helper in textkit/slugify.py.",
    constraints: [{ id: "c1", text: "It must lowercase the text.", sources: ["u1"] }],
    progress: [{ text: "Wrote textkit/slugify.py", sources: ["call_1"] }],
    pending: [],
    files: ["textkit/slugify.py"],
    uncertainties: [],
    coverage: { through: "u1", groups: ["u1"] },
    lastUpdate: { updater: "extractive", groups: 1, notes: [] },
  };
}

describe("marking a task split", () => {
  it("markSplit names the session on the task alone, leaves every decision, and throws for an unknown task", () => {
    const split = markSplit(ledger, "t1", "ses_new");
    expect(split.tasks.map((task) => [task.id, task.split])).toEqual([
      ["t1", { session: "ses_new" }],
      ["t2", undefined],
    ]);
    expect(split.decisions).toBe(ledger.decisions);
    expect(split.order).toBe(ledger.order);
    expect(ledger.tasks[0]?.split).toBeUndefined();
    expect(() => markSplit(ledger, "t9", "ses_new")).toThrow(/unknown task t9/);
  });

  it("a ledger written before splits existed still parses, and a split one round-trips", () => {
    const old = JSON.parse(JSON.stringify(ledger));
    expect(LedgerSchema.parse(old).tasks[0]?.split).toBeUndefined();
    expect(LedgerSchema.parse(JSON.parse(JSON.stringify(markSplit(ledger, "t1", "ses_new")))).tasks[0]?.split).toEqual({ session: "ses_new" });
  });

  it("the router no longer offers a split task: a request about it opens a new task or goes elsewhere, never to it", async () => {
    const index = new TaskIndex();
    const split = markSplit(ledger, "t1", "ses_new");
    for (const task of split.tasks) index.addTask(task.id, task.title);
    index.addEvidence("t1", { text: REQUESTS.slug, paths: ["textkit/slugify.py"] });
    index.addEvidence("t2", { text: REQUESTS.csv, paths: ["exporters/csv_export.py"] });
    index.current = "t1";
    // Before the split, the same request goes to t1.
    const before = await routeRequest({
      router: lexicalRouter,
      ledger,
      index: cloneIndex(ledger),
      messageID: "u4",
      text: REQUESTS.slugAgain,
      threshold: THRESHOLD,
    });
    expect(before.task.id).toBe("t1");
    const routed = await routeRequest({ router: lexicalRouter, ledger: split, index, messageID: "u4", text: REQUESTS.slugAgain, threshold: THRESHOLD });
    expect(routed.task.id).not.toBe("t1");
    expect(index.tasks().map((task) => task.id)).not.toContain("t1");
    // Ordinals stay: "task 2" is still t2.
    expect(index.task("t2")?.ordinal).toBe(2);
  });

  it("a session whose only task is split routes its next request to a new task", async () => {
    const one = markSplit(ledgerOf([["u1", "new:Add slugify"]]), "t1", "ses_new");
    const index = new TaskIndex();
    index.addTask("t1", "Add slugify");
    index.addEvidence("t1", { text: REQUESTS.slug, paths: ["textkit/slugify.py"] });
    const routed = await routeRequest({ router: lexicalRouter, ledger: one, index, messageID: "u2", text: REQUESTS.slugAgain, threshold: THRESHOLD });
    expect(routed.task.id).toBe("t2");
    expect(routed.entry.opened).toBe(true);
  });

  it("views show a split task as split → its session", () => {
    const split = markSplit(ledger, "t1", "ses_new");
    expect(taskRows(split).map((row) => [row.id, row.status])).toEqual([
      ["t1", "split → ses_new"],
      ["t2", "suspended"],
    ]);
    expect(renderTaskTable(split).join("\n")).toMatch(/t1 +split → ses_new +2 requests/);
  });
});

describe("the seed of a split-out session", () => {
  it("takes the task's own requests, verbatim and in order, and no other task's, no answer, no synthetic text", () => {
    const groups = toInteractionGroups([...messages, user("u5", "Continue if you have next steps", { synthetic: true })]);
    expect(taskRequestTexts(groups, ledger, "t1", THRESHOLD)).toEqual([REQUESTS.slug, REQUESTS.slugAgain]);
    expect(taskRequestTexts(groups, ledger, "t2", THRESHOLD)).toEqual([REQUESTS.csv]);
  });

  it("leaves out a request guessed to the task whose place is not settled, and numbers it for the note (issue 47)", () => {
    const unsure = ledgerOf([
      ["u1", "new:Add slugify"],
      ["u2", "new:Quote CSV fields"],
      ["u3", "t1", 0.6],
    ]);
    const groups = toInteractionGroups(messages);
    expect(taskRequestTexts(groups, unsure, "t1", THRESHOLD)).toEqual([REQUESTS.slug]);
    expect(unsureRequestNumbers(unsure, "t1", THRESHOLD)).toEqual([3]);
    expect(unsureRequestNumbers(unsure, "t2", THRESHOLD)).toEqual([]);
  });

  it("says where it comes from, then the record as the model sees it, then each request delimited", () => {
    const seed = splitSeed({
      ledger,
      records: { t1: record("t1"), t2: record("t2") },
      task: "t1",
      requests: [REQUESTS.slug, REQUESTS.slugAgain],
      from: { sessionID: "ses_old", title: "Tools work" },
      recordTokens: RECORD_TOKENS,
    });
    const lines = seed.split("\n");
    expect(lines[0]).toBe(
      'This session continues task t1 "Add slugify" of OpenCode session "Tools work" (ses_old), split out by the user; below are its memory record, then the user\'s requests in it, verbatim and oldest first.',
    );
    expect(seed).toContain(`${RECORD_OPEN} task="t1">`);
    expect(seed).toContain("1. It must lowercase the text.");
    expect(seed).not.toContain('task="t2"');
    expect(seed.indexOf(RECORD_OPEN)).toBeLessThan(seed.indexOf(SEED_REQUEST_OPEN));
    expect(seed).toContain(`${SEED_REQUEST_OPEN} n="1">\n${REQUESTS.slug}\n</rcm-request>`);
    expect(seed).toContain(`${SEED_REQUEST_OPEN} n="2">\n${REQUESTS.slugAgain}\n</rcm-request>`);
  });

  it("without a record (router mode) carries the requests alone, and names the session by id without a title", () => {
    const seed = splitSeed({ ledger, records: {}, task: "t2", requests: [REQUESTS.csv], from: { sessionID: "ses_old" }, recordTokens: RECORD_TOKENS });
    expect(seed.split("\n")[0]).toBe(
      'This session continues task t2 "Quote CSV fields" of OpenCode session ses_old, split out by the user; below are the user\'s requests in it, verbatim and oldest first.',
    );
    expect(seed).not.toContain(RECORD_OPEN);
    expect(seed).toContain(REQUESTS.csv);
  });
});

describe("/rcm split", () => {
  const verb = rcmVerb("split");
  if (verb?.kind !== "change") throw new Error("split is a changing verb");
  const state = stateOf("ses_old", ledger);

  it("gives a split intent the inbox takes, for a task named in any case", () => {
    expect(verb.intent(state, ["T1"])).toEqual({ kind: "split", task: "t1" });
    expect(SessionIntentSchema.parse({ kind: "split", task: "t1" })).toEqual({ kind: "split", task: "t1" });
    expect(SessionIntentSchema.safeParse({ kind: "split" }).success).toBe(false);
  });

  it("says what is wrong otherwise, and is offered while some task is not split yet", () => {
    expect(verb.intent(state, [])).toEqual({ problem: "needs one task id, e.g. split t2 (tasks: t1, t2)" });
    expect(verb.intent(state, ["t9"])).toEqual({ problem: 'no task "t9" in this session (tasks: t1, t2)' });
    expect(verb.intent(undefined, ["t1"])).toEqual({ problem: "no task in this session yet" });
    const split = stateOf("ses_old", markSplit(ledger, "t1", "ses_new"));
    expect(verb.intent(split, ["t1"])).toEqual({ problem: "t1 is split out already, into ses_new" });
    expect([
      verb.offered(state),
      verb.offered(split),
      verb.offered(stateOf("ses_old", markSplit(split.ledger, "t2", "ses_2"))),
      verb.offered(undefined),
    ]).toEqual([true, true, false, false]);
  });
});

/** An index of the ledger's tasks with the same evidence as the test's, for the before-split route. */
function cloneIndex(from: typeof ledger): TaskIndex {
  const index = new TaskIndex();
  for (const task of from.tasks) index.addTask(task.id, task.title);
  index.addEvidence("t1", { text: REQUESTS.slug, paths: ["textkit/slugify.py"] });
  index.addEvidence("t2", { text: REQUESTS.csv, paths: ["exporters/csv_export.py"] });
  index.current = "t1";
  return index;
}
