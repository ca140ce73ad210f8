import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { splitCommand, statusCommand } from "../../src/cli/sessions/session-verbs.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { createSessionRouting } from "../../src/plugin/sessions/session-routing.js";
import { createSessionSplit, type SplitHost } from "../../src/plugin/sessions/session-split.js";
import { createLiveSessions, createSessionStore } from "../../src/plugin/sessions/session-store.js";
import { createVerbDispatcher } from "../../src/plugin/sessions/verb-dispatcher.js";
import { noteProject } from "../../src/plugin/store/project-file.js";
import { pendingIntents, postIntent } from "../../src/plugin/store/session-inbox.js";
import { resolveStateDir } from "../../src/plugin/store/state-dir.js";
import { lexicalRouter, RECORD_TOKENS, THRESHOLD } from "../support/defaults.js";
import { recordingLogger, sourceFor } from "../support/plugin-parts.js";
import { ledgerOf } from "../support/routing.js";
import { makeTempDir } from "../support/temp-dir.js";

const SLUG = "Add textkit/slugify.py with a slugify(text) function.";
const CSV = "Separate issue: quote CSV fields with commas in exporters/csv_export.py.";

function user(id: string, text: string): MessageWithParts {
  return {
    info: { id, sessionID: "ses_old", role: "user", time: { created: 0 }, agent: "plan", model: { providerID: "prov", modelID: "mod" } },
    parts: [{ id: `prt_${id}`, sessionID: "ses_old", messageID: id, type: "text", text }],
  } as MessageWithParts;
}

/** A host that records what it was asked, opening sessions ses_new1, ses_new2... */
function recordingHost(options: { showFails?: boolean } = {}): SplitHost & { calls: string[]; seeds: Parameters<SplitHost["seed"]>[1][] } {
  const calls: string[] = [];
  const seeds: Parameters<SplitHost["seed"]>[1][] = [];
  let opened = 0;
  return {
    calls,
    seeds,
    describe: async (sessionID) => {
      calls.push(`describe ${sessionID}`);
      return { title: "Tools work", directory: "/repo" };
    },
    create: async ({ title, directory }) => {
      opened += 1;
      calls.push(`create "${title}" in ${directory}`);
      return `ses_new${opened}`;
    },
    seed: async (sessionID, message) => {
      calls.push(`seed ${sessionID}`);
      seeds.push(message);
    },
    show: async (sessionID) => {
      calls.push(`show ${sessionID}`);
      if (options.showFails) throw new Error("no TUI");
    },
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-session-split");
});
afterEach(async () => {
  await temp.remove();
});

async function setUp(host: SplitHost, stateDir = temp.path) {
  const source = sourceFor({ ses_old: { messages: [user("u1", SLUG), user("u2", CSV)] } });
  const logger = recordingLogger();
  const sessions = createLiveSessions();
  const store = createSessionStore({ stateDir, source, logger, sessions, applyIntent: (session, intent) => verbs.apply(session, intent) });
  const routing = createSessionRouting({ store, router: lexicalRouter, source, logger, threshold: THRESHOLD });
  const split = createSessionSplit({ store, source, host, logger, recordTokens: RECORD_TOKENS, threshold: THRESHOLD });
  const verbs = createVerbDispatcher({ store, routing, split });
  await store.step("ses_old", (session) =>
    store.commit(session, {
      ...session.state,
      ledger: ledgerOf([
        ["u1", "new:Add slugify"],
        ["u2", "new:Quote CSV fields"],
      ]),
    }),
  );
  return { store, logger, split: verbs };
}

describe("splitting a task out into its own session", () => {
  it("opens a session titled after the task, seeds it with the task's requests for the model, marks the task split, then shows the session", async () => {
    const host = recordingHost();
    const { store, split } = await setUp(host);
    const done = await split.split("ses_old", "t1");
    expect(done).toMatchObject({ sessionID: "ses_new1", title: "Add slugify (split from Tools work)", requests: 1, record: false, task: { id: "t1" } });
    expect(host.calls).toEqual(["describe ses_old", 'create "Add slugify (split from Tools work)" in /repo', "seed ses_new1", "show ses_new1"]);
    const [seed] = host.seeds;
    expect(seed?.text).toContain(SLUG);
    expect(seed?.text).not.toContain(CSV);
    expect(seed?.note).toBe('opencode-rcm: t1 "Add slugify" split from "Tools work" (ses_old); the model gets its request with your first request here.');
    // The new session starts with the old one's latest model and agent.
    expect([seed?.model, seed?.agent]).toEqual([{ providerID: "prov", modelID: "mod" }, "plan"]);
    expect((await store.read("ses_old"))?.ledger.tasks.map((task) => task.split?.session)).toEqual(["ses_new1", undefined]);
    await expect(split.split("ses_old", "t1")).rejects.toThrow("t1 is split out already, into ses_new1");
  });

  it("applies a split the TUI or the CLI posted once, even when it was posted twice", async () => {
    const host = recordingHost();
    const { store, logger } = await setUp(host);
    await postIntent(temp.path, "ses_old", { kind: "split", task: "t2" });
    await postIntent(temp.path, "ses_old", { kind: "split", task: "t2" });
    const state = await store.read("ses_old");
    expect(state?.ledger.tasks.map((task) => task.split?.session)).toEqual([undefined, "ses_new1"]);
    expect(host.calls.filter((call) => call.startsWith("create"))).toHaveLength(1);
    expect(await pendingIntents(temp.path, "ses_old")).toEqual([]);
    expect(logger.lines).toContain("info: dropped split from the TUI or CLI: t2 is split out already, into ses_new1");
  });

  it("stands when no TUI can show the new session", async () => {
    const host = recordingHost({ showFails: true });
    const { store, split, logger } = await setUp(host);
    expect((await split.split("ses_old", "t2")).sessionID).toBe("ses_new1");
    expect((await store.read("ses_old"))?.ledger.tasks[1]?.split).toEqual({ session: "ses_new1" });
    expect(logger.lines).toContain("warn: could not show the split session in the TUI: no TUI");
  });
});

describe("opencode-rcm split (outside the TUI)", () => {
  it("posts the split to the session's inbox, status says it waits, and the server applies it at its next step", async () => {
    const env = { XDG_DATA_HOME: join(temp.path, "data"), XDG_CONFIG_HOME: join(temp.path, "config") };
    const project = join(temp.path, "project");
    const stateDir = resolveStateDir({ projectID: "abc123", env, home: temp.path });
    await noteProject(stateDir, {
      projectID: "abc123",
      worktree: project,
      directory: project,
      settings: { mode: "router", router: "lexical", confidenceThreshold: 0.8 },
    });
    const host = recordingHost();
    const { store } = await setUp(host, stateDir);
    await store.flush("ses_old");
    const scope = { directory: project, env };
    expect(await splitCommand(scope, "ses_old", "T2")).toContain(
      "In session ses_old, t2 goes on in a new OpenCode session seeded with its record and requests",
    );
    await expect(splitCommand(scope, "ses_old", "t9")).rejects.toThrow('session ses_old: no task "t9" in this session (tasks: t1, t2)');
    expect(await statusCommand(scope, "ses_old")).toContain("Waiting for OpenCode to apply (at the session's next request): split t2 into a new session");
    expect(host.calls).toEqual([]);
    await store.pickUp();
    expect(host.calls.filter((call) => call.startsWith("create"))).toEqual(['create "Quote CSV fields (split from Tools work)" in /repo']);
    expect(await statusCommand(scope, "ses_old")).toMatch(/t2 +split → ses_new1/);
  });
});
