import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, isCompactionRequest, messageText } from "../../src/lab/scripted-model/index.js";
import { type FakeAuxEndpoint, type FakeReply, startFakeAuxEndpoint } from "../support/fake-aux-endpoint.js";
import { makeTempDir } from "../support/temp-dir.js";
import { answers } from "./support/everyday-session.js";
import {
  countTokens,
  EXCHANGE_MARKS,
  firstRequestFor,
  fourTaskScript,
  REPO_FILES,
  REQUESTS,
  recordTextIn,
  requestTokens,
  waitForState,
} from "./support/four-tasks.js";

const PLUGIN = builtEntry("./server");
const SCHEDULE = ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3"] as const;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-memory-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

/**
 * A stand-in aux model for the memory prompt: each new user request becomes a constraint,
 * each completed tool call progress, and it also makes claims the rules must reject (a
 * made-up call id, a "done" citing only the assistant's words). Any update whose batch
 * holds A2 fails with HTTP 500, so A2 stays uncovered.
 */
function memoryModel(body: unknown): FakeReply {
  const messages = (body as ChatRequestBody).messages;
  const prompt = messageText(messages.findLast((message) => message.role === "user")?.content);
  if (prompt.includes(REQUESTS.A2)) return { kind: "status", status: 500, message: "the aux model is down" };
  const previousText = prompt.split("## The record so far\n")[1]?.split("\n\n## New interaction groups")[0] ?? "";
  const previous = previousText.startsWith("{") ? (JSON.parse(previousText) as { goal: string; constraints: { id: string }[] }) : undefined;
  const requests = [...prompt.matchAll(/\[user message (\S+)\]:\n([^\n]+)/g)];
  const calls = [...prompt.matchAll(/\[tool call (\S+): (\w+), completed/g)];
  const assistant = [...prompt.matchAll(/\[assistant (\S+), a claim\]/g)].map((match) => match[1] ?? "");
  const proposal = {
    goal: previous?.goal ?? requests[0]?.[2] ?? "",
    constraints: [...(previous?.constraints ?? []).map(({ id }) => ({ id })), ...requests.map(([, id, text]) => ({ text, sources: [id] }))],
    superseded: [],
    progress: [
      ...calls.map(([, id, tool]) => ({ text: `${tool} call ${id} completed`, sources: [id] })),
      { text: "Ran the whole test suite", sources: ["call_made_up"] },
      { text: "The task is done", sources: assistant.slice(0, 1) },
    ],
    pending: [],
    files: [],
    uncertainties: [],
  };
  return { kind: "content", content: JSON.stringify(proposal) };
}

describe("task memory inside the real OpenCode", () => {
  it("resumes task A with its record: covered exchanges replaced, uncovered ones kept, user requests verbatim", async () => {
    const aux: FakeAuxEndpoint = await startFakeAuxEndpoint({ respond: memoryModel });
    try {
      const run = async (mode: "full" | "memory" | "router") => {
        const repo = join(temp.path, `repo-${mode}`);
        await createGitRepo(repo, REPO_FILES);
        const stateDir = join(temp.path, `state-${mode}`);
        const plugin: PluginEntry = [
          PLUGIN,
          // replaceBatchTokens 0: this test is about which exchanges may go, not about batching them.
          { mode, debug: true, stateDir, aux: { baseURL: aux.url, model: "aux" }, memory: { updater: "model", keepRecent: 1, replaceBatchTokens: 0 } },
        ];
        return withScriptedOpencode(
          { runDir: join(temp.path, `run-${mode}`), directory: repo, script: fourTaskScript(repo), plugins: [plugin] },
          async ({ client, prompt, model, messages }) => {
            const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
            for (const step of SCHEDULE) {
              await prompt(sessionID, REQUESTS[step]);
              if (mode === "router") continue;
              // Updates run in the background after session.idle; wait for this turn's.
              const updates = step === "A1" ? 1 : step === "A2" ? 2 : 0;
              if (updates > 0)
                await waitForState(
                  stateDir,
                  sessionID,
                  (state) => state.memoryUpdates.filter((u) => u.task === "t1").length >= updates,
                  `t1 update ${updates}`,
                );
            }
            const state = mode !== "router" ? await waitForState(stateDir, sessionID, (s) => s.memoryUpdates.length >= 9, "all updates") : undefined;
            // What a person sees of it: the record, and what the last call did with it.
            for (const words of ["show t1", "status"]) await client.session.command({ sessionID, command: "rcm-text", arguments: words });
            const said = answers(await messages(sessionID)).slice(-2);
            return { requests: await model.requests(), state, said };
          },
        );
      };
      const full = await run("full");
      // /rcm-text show and status say what the call carried: t1's record in place of A1's exchange.
      const [show, status] = full.said;
      expect(show).toMatch(/^\/rcm-text show t1\nMemory record of t1 ".*"\n/);
      expect(show).toContain(
        "Covers request 1 (not yet requests 5 and 9: the auxiliary model updates in batches and before OpenCode compacts: a later update takes them); written by the auxiliary model.",
      );
      expect(show).toContain(`  1. ${REQUESTS.A1}  (#1)`);
      expect(show).toMatch(/The last call for t1 \(request 9, \d\d:\d\d\) carried this record in place of 1 earlier exchange\./);
      expect(show).not.toContain("<rcm-task-memory");
      expect(status).toContain(
        "The model sees only t1's history; the other tasks are left out. The last call carried t1's memory record in place of 1 earlier exchange.",
      );

      const resumed = firstRequestFor(full.requests, REQUESTS.A3);
      const sent = JSON.stringify(resumed);

      // A's record, with A's earlier constraint (A2's update failed: its constraint is not in it).
      const record = recordTextIn(resumed);
      expect(record).toBeDefined();
      expect(record).toContain('<rcm-task-memory task="t1">');
      expect(record).toContain(REQUESTS.A1);
      expect(record).not.toContain(REQUESTS.A2);
      // The rules: a made-up call id and a claim with only the assistant's words are not progress.
      expect(record).toMatch(/Progress \(shown by tool results, dead ends included\):\n- write call \S+ completed\n- bash call \S+ completed/);
      expect(record).toContain("Unverified claim: The task is done");
      expect(record).not.toMatch(/^- Ran the whole test suite$/m);
      // User requests verbatim; A1's exchange replaced (covered); A2's kept (not covered).
      for (const text of [REQUESTS.A1, REQUESTS.A2, REQUESTS.A3]) expect(sent).toContain(text);
      expect(sent).not.toContain(EXCHANGE_MARKS.A1);
      expect(sent).not.toContain("def slugify(text)");
      expect(sent).toContain(EXCHANGE_MARKS.A2);
      // Routing still leaves the other tasks out.
      for (const other of [REQUESTS.B1, REQUESTS.C1, REQUESTS.D1, EXCHANGE_MARKS.B1, EXCHANGE_MARKS.D1]) expect(sent).not.toContain(other);
      expect(sent).toMatch(/task=t1 confidence=[\d.]+ kept=3\/9 .*memory: record=t1 covers=1 replaced=1 verbatim=1 recordChars=\d+ \(the text shown before\)/);
      // The record stays where A2's calls first had it, with the same text (the cut has not moved:
      // A2's update failed), so A3's call re-reads nothing of A2's turn; the request stays the last user message.
      const users = resumed.messages.filter((message) => message.role === "user").map((message) => messageText(message.content));
      expect(users.at(-3)).toContain("<rcm-task-memory");
      expect(users.at(-2)?.startsWith(REQUESTS.A2)).toBe(true);
      expect(users.at(-1)?.startsWith(REQUESTS.A3)).toBe(true);
      // Everything up to and with the record is what A2's first call sent, byte for byte.
      const upToRecord = (body: ChatRequestBody) =>
        JSON.stringify(body.messages.slice(0, body.messages.findIndex((message) => messageText(message.content).includes("<rcm-task-memory")) + 1));
      expect(upToRecord(resumed)).toBe(upToRecord(firstRequestFor(full.requests, REQUESTS.A2)));

      // Persisted with the ledger: A's record covers A1 only; the aux model's usage is logged.
      const t1 = full.state?.records.t1;
      expect(t1?.coverage.groups).toHaveLength(1);
      expect(t1?.constraints.map((constraint) => constraint.text)).toEqual([REQUESTS.A1]);
      expect(t1?.lastUpdate.notes.join("\n")).toContain('rejected progress source "call_made_up"');
      expect(full.state?.memoryUpdates.filter((update) => !update.ok).map((update) => update.task)).toEqual(["t1", "t1"]);
      expect(full.state?.memoryUpdates.every((update) => (update.aux?.calls ?? 0) >= 1)).toBe(true);
      expect(Object.keys(full.state?.records ?? {}).sort()).toEqual(["t2", "t3", "t4", "t1"].sort());

      // Memory without routing (the "memory only" ablation): other tasks stay, A1's exchange goes.
      const memoryOnly = JSON.stringify(firstRequestFor((await run("memory")).requests, REQUESTS.A3));
      expect(memoryOnly).toContain('<rcm-task-memory task=\\"t1\\">');
      for (const kept of [REQUESTS.B1, REQUESTS.D2, EXCHANGE_MARKS.B1, EXCHANGE_MARKS.D1, EXCHANGE_MARKS.A2]) expect(memoryOnly).toContain(kept);
      expect(memoryOnly).not.toContain(EXCHANGE_MARKS.A1);
      expect(memoryOnly).toMatch(/mode=memory .*memory: record=t1 covers=1 replaced=1 verbatim=1/);

      // The same session with routing only: what the record replaced, measured in cl100k tokens.
      const router = await run("router");
      const before = requestTokens(firstRequestFor(router.requests, REQUESTS.A3));
      const after = requestTokens(resumed);
      const recordTokens = countTokens(record ?? "");
      const replaced = before - (after - recordTokens);
      expect(replaced).toBeGreaterThan(0);
      expect(recordTokens).toBeLessThan(1500);
      console.log(
        `memory e2e: record ${recordTokens} tokens; resumption request ${after} tokens with memory vs ${before} with routing only; ` +
          `the record replaced ${replaced} tokens = ${((100 * replaced) / before).toFixed(1)}% of the request`,
      );
    } finally {
      await aux.close();
    }
  });

  it("gives the summarizer every task's record when OpenCode compacts, and keeps routing and remembering afterwards", async () => {
    const repo = join(temp.path, "repo-compaction");
    await createGitRepo(repo, REPO_FILES);
    const stateDir = join(temp.path, "state-compaction");
    // replaceBatchTokens 0: every turn updates the records, which this test reads turn by turn.
    const plugin: PluginEntry = [PLUGIN, { mode: "full", debug: true, stateDir, memory: { replaceBatchTokens: 0 } }];
    const { requests, serverOutput, updates } = await withScriptedOpencode(
      {
        runDir: join(temp.path, "run-compaction"),
        directory: repo,
        script: fourTaskScript(repo, { bigOutputIn: "A2" }),
        plugins: [plugin],
        contextLimit: 16_000,
      },
      async ({ client, prompt, model, server, messages }) => {
        const sessionID = (await client.session.create({}, { throwOnError: true })).data.id;
        for (const [position, step] of (["A1", "B1", "C1", "D1"] as const).entries()) {
          await prompt(sessionID, REQUESTS[step]);
          await waitForState(stateDir, sessionID, (state) => Object.keys(state.records).length > position, `record ${position + 1}`);
        }
        await prompt(sessionID, REQUESTS.A2);
        await prompt(sessionID, REQUESTS.B2);
        const state = await waitForState(stateDir, sessionID, (s) => (s.records.t2?.coverage.groups.length ?? 0) >= 2, "t2 covering B2");
        // The agent can read the tasks and a record through rcm_tasks; bad arguments get a clear error.
        await prompt(sessionID, REQUESTS.TASKS);
        const calls = (await messages(sessionID))
          .flatMap((message) => message.parts)
          .flatMap((part) => (part.type === "tool" && part.tool === "rcm_tasks" ? [part.state] : []));
        expect(calls.map((call) => call.status)).toEqual(["completed", "completed", "error"]);
        const [list, show, bad] = calls.map((call) => (call.status === "completed" ? call.output : call.status === "error" ? call.error : ""));
        expect(list).toMatch(/^t1 \[suspended\] Add textkit\/slugify\.py/m);
        expect(list?.match(/\[current\]/g)).toHaveLength(1);
        for (const task of ["t2", "t3", "t4"]) expect(list).toMatch(new RegExp(`^${task} \\[(suspended|current)\\] `, "m"));
        expect(show).toContain('<rcm-task-memory task="t2">');
        expect(show).toContain("newlines");
        expect(bad).toContain("rcm_tasks: invalid arguments: task: show needs a task id");
        expect(state.records.t2?.constraints.map((constraint) => constraint.text).join("\n")).toContain("newlines");
        // Both edits of the exporter: one progress item citing both calls.
        expect(state.records.t2?.progress.flatMap((item) => item.sources)).toHaveLength(2);
        const updates = (await waitForState(stateDir, sessionID, () => true, "the state")).memoryUpdates;
        return { requests: await model.requests(), serverOutput: server.output(), updates };
      },
    );
    const compactions = requests
      .map((request) => request.body as ChatRequestBody)
      .filter((body) => isCompactionRequest(messageText(body.messages.findLast((message) => message.role === "user")?.content)));
    expect(compactions.length).toBeGreaterThan(0);
    const summarizer = JSON.stringify(compactions[0]);
    for (const task of ["t1", "t2", "t3", "t4"]) expect(summarizer).toContain(`<rcm-task-memory task=\\"${task}\\">`);
    expect(summarizer).toContain("the suspended ones included");
    expect(summarizer).toContain("must quote fields that contain commas");
    // The compaction clone is not filtered: the serialized history holds every task's requests.
    for (const text of [REQUESTS.B1, REQUESTS.C1, REQUESTS.D1]) expect(summarizer).toContain(text);

    // After compaction: B2 is routed to t2 and carries t2's record, built before the compaction.
    const resumed = firstRequestFor(requests, REQUESTS.B2);
    expect(recordTextIn(resumed)).toContain('<rcm-task-memory task="t2">');
    expect(recordTextIn(resumed)).toContain("must quote fields that contain commas");
    expect(JSON.stringify(resumed)).toMatch(/task=t2 confidence=[\d.]+ kept=\d+\/\d+/);
    expect(serverOutput).not.toMatch(/failed; falling back/);
    // Updates start from the last call's view, not a read of the whole session.
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.filter((update) => update.read === "view").length).toBeGreaterThanOrEqual(updates.length / 2);
  });
});
