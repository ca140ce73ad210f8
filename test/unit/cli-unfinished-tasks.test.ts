import { cp, mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { noteSessionTitle } from "../../src/plugin/store/session-titles.js";
import { runCli } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

// The CLI corpus's recorded state: three sessions the session store wrote from recorded histories.
const CORPUS = join(import.meta.dirname, "../../fixtures/cli-corpus/state");
const SLOW_SUITE = "ses_dd631d439ffetRWE95heTS17Ki";
const TWO_TASKS = "ses_dd632b3cbffe2RcQvKCoab7xrt";
const WITH_RECORD = "ses_dd63313beffeTpRHYYhn65jjsF";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let env: Record<string, string>;
let project: string;
let stateDir: string;
let scope: string[];

beforeEach(async () => {
  temp = await makeTempDir("rcm-cli-unfinished");
  env = { XDG_DATA_HOME: join(temp.path, "data"), XDG_CONFIG_HOME: join(temp.path, "config") };
  project = join(temp.path, "project");
  stateDir = join(temp.path, "state");
  await mkdir(project, { recursive: true });
  await cp(CORPUS, stateDir, { recursive: true });
  const now = Date.now();
  for (const [sessionID, hours] of [
    [SLOW_SUITE, 1],
    [TWO_TASKS, 30],
    [WITH_RECORD, 72],
  ] as const) {
    const when = new Date(now - hours * 3_600_000);
    await utimes(sessionStateFile(stateDir, sessionID).path, when, when);
  }
  await noteSessionTitle(stateDir, { sessionID: TWO_TASKS, title: "Slugify and changelog", at: new Date() });
  scope = ["--dir", project, "--state-dir", stateDir];
});
afterEach(async () => {
  await temp.remove();
});

describe("opencode-rcm tasks --all, done and drop", () => {
  it("lists the unfinished tasks of every session with age, pending asks and session, then leaves out those marked", async () => {
    const listed = await runCli(["tasks", "--all", ...scope], env);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split("\n");
    expect(lines[0]).toBe(`Unfinished tasks of ${stateDir} (most recently active first; opencode-rcm done|drop <session>/<task> marks one):`);
    expect(lines.filter((line) => line.startsWith("ses_"))).toEqual([
      `${SLOW_SUITE}/t1  1 h ago  unfinished, nothing pending in its record  session (untitled)`,
      `${TWO_TASKS}/t1  30 h ago  unfinished, nothing pending in its record  session "Slugify and changelog"`,
      `${TWO_TASKS}/t2  30 h ago  unfinished, nothing pending in its record  session "Slugify and changelog"`,
      `${WITH_RECORD}/t1  3 days ago  unfinished, 1 pending  session (untitled)`,
      `${WITH_RECORD}/t2  3 days ago  unfinished, nothing pending in its record  session (untitled)`,
    ]);
    expect(lines[8]).toMatch(/^ {4}Task A: add textkit\/slugify\.py/);

    const done = await runCli(["done", `${TWO_TASKS.slice(0, 16)}/t2`, ...scope], env);
    expect(done.stderr).toBe("");
    expect(done.stdout).toMatch(
      new RegExp(
        `^Session ${TWO_TASKS} "Slugify and changelog"\n${TWO_TASKS}/t2 "Task B: .*" is marked done: opencode-rcm tasks --all no longer lists it\\.\n$`,
      ),
    );
    const dropped = await runCli(["drop", `latest/t1`, ...scope], env);
    expect(dropped.stdout).toContain(`${SLOW_SUITE}/t1 "Run the full slow suite" is marked dropped`);
    const after = await runCli(["tasks", "--all", ...scope], env);
    expect(
      after.stdout
        .split("\n")
        .filter((line) => line.startsWith("ses_"))
        .map((line) => line.split(" ")[0]),
    ).toEqual([`${TWO_TASKS}/t1`, `${WITH_RECORD}/t1`, `${WITH_RECORD}/t2`]);
    // Only the marks file changed: the sessions' state files are the running servers'.
    for (const sessionID of [SLOW_SUITE, TWO_TASKS, WITH_RECORD]) {
      expect(await readFile(sessionStateFile(stateDir, sessionID).path, "utf8")).toBe(await readFile(join(CORPUS, "sessions", `${sessionID}.json`), "utf8"));
    }
  });

  it("keeps to resume.maxTasks from the project's rcm.jsonc and says how many more there are", async () => {
    await mkdir(join(project, ".opencode"), { recursive: true });
    await writeFile(join(project, ".opencode", "rcm.jsonc"), '{ "resume": { "maxTasks": 2 } }\n');
    const listed = await runCli(["tasks", "--all", ...scope], env);
    expect(listed.stdout.split("\n").filter((line) => line.startsWith("ses_"))).toHaveLength(2);
    expect(listed.stdout).toContain("3 more not listed: older than 14 days or past the first 2 (options resume.maxAgeDays, resume.maxTasks).");
    await writeFile(join(project, ".opencode", "rcm.jsonc"), '{ "resume": { "maxAgeDays": 2 } }\n');
    const recent = await runCli(["tasks", "--all", ...scope], env);
    expect(recent.stdout.split("\n").filter((line) => line.startsWith("ses_"))).toHaveLength(3);
    expect(recent.stdout).toContain("1 session last written more than 2 days ago not read (option resume.maxAgeDays).");
  });

  it("names what is wrong: a task the session lacks, a missing task, a session with --all, an unreadable state file", async () => {
    const unknown = await runCli(["done", `${TWO_TASKS}/t9`, ...scope], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`opencode-rcm: session ${TWO_TASKS} has no task t9 (its tasks: t1, t2) (session)\n`);
    const empty = await runCli(["drop", `${TWO_TASKS}/`, ...scope], env);
    expect(empty.stderr).toMatch(/^opencode-rcm: drop takes \[<session>\/\]<task>, got ses_\S+\/ \(usage\)/);
    const both = await runCli(["tasks", TWO_TASKS, "--all", ...scope], env);
    expect(both.stderr).toMatch(/^opencode-rcm: tasks --all lists every session's tasks: drop the session id/);
    const broken = join(stateDir, "sessions", "ses_broken.json");
    await writeFile(broken, "{");
    const listed = await runCli(["tasks", "--all", ...scope], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`unreadable (left as it is): ${broken}: not JSON`);
    expect(await readFile(broken, "utf8")).toBe("{");
  });

  it("still answers tasks for one session as /rcm tasks does without --all", async () => {
    const one = await runCli(["tasks", TWO_TASKS, ...scope], env);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(new RegExp(`^Session ${TWO_TASKS} "Slugify and changelog"\n`));
    expect(one.stdout).not.toContain("Unfinished tasks of");
  });
});

describe("opencode-rcm resume", () => {
  it("lists the other sessions' unfinished tasks for the session, then posts the one picked to its inbox", async () => {
    const { pendingIntents } = await import("../../src/plugin/store/session-inbox.js");
    // The corpus's server ran in mode router: resuming needs a record, so it says so.
    const router = await runCli(["resume", TWO_TASKS, ...scope], env);
    expect(router.stderr).toMatch(/^opencode-rcm: Resuming a task of an earlier session needs modes memory or full/);
    const project = join(stateDir, "project.json");
    await writeFile(project, (await readFile(project, "utf8")).replace('"mode":"router"', '"mode":"full"'));
    const listed = await runCli(["resume", TWO_TASKS, ...scope], env);
    expect(listed.stderr).toBe("");
    const rows = listed.stdout.split("\n").filter((line) => /^ {2}\d+\. /.test(line));
    expect(rows.map((row) => row.slice(row.lastIndexOf("[")))).toEqual([`[${SLOW_SUITE}/t1]`, `[${WITH_RECORD}/t1]`, `[${WITH_RECORD}/t2]`]);
    // t2 names one task among the others: WITH_RECORD's.
    const posted = await runCli(["resume", TWO_TASKS, "t2", ...scope], env);
    expect(posted.stderr).toBe("");
    expect(posted.stdout).toContain(`In session ${TWO_TASKS}, t2 `);
    expect((await pendingIntents(stateDir, TWO_TASKS)).map((pending) => pending.intent)).toEqual([{ kind: "resume", key: `${WITH_RECORD}/t2` }]);
    const status = await runCli(["status", TWO_TASKS, ...scope], env);
    expect(status.stdout).toContain(`resume ${WITH_RECORD}/t2 here`);
    const wrong = await runCli(["resume", TWO_TASKS, "9", ...scope], env);
    expect(wrong.stderr).toContain("no task 9 in the list: it has 1 to 3");
  });
});
