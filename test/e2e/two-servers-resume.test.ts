import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createIsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { offlineConfig, type PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { type OpencodeServer, startOpencodeServer } from "../../src/lab/harness/opencode-server.js";
import { type Script, startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { readTaskMarks } from "../../src/plugin/store/task-marks.js";
import { unfinishedTasks } from "../../src/plugin/store/unfinished-tasks.js";
import { makeTempDir } from "../support/temp-dir.js";

// Two OpenCode processes of one project at once, as two TUIs are (each runs its own server on
// the same storage and the same state dir): both see the same unfinished tasks; a task both
// name at the same moment is resumed by one of them only; killing one mid-turn loses nothing.
const PLUGIN = builtEntry("./server");

const SAY = {
  retry: "Task one: in src/webhook.py add send_with_retry that retries a failed webhook POST three times",
  report: "Separate task: in src/report.py add monthly_totals that sums invoice amounts per month",
  backOne: "Back to send_with_retry in src/webhook.py: cap the delay at 30 seconds",
  backTwo: "Back to send_with_retry in src/webhook.py: log each attempt",
  slow: "Run the slow integration check of the billing exports",
  yearly: "Back to monthly_totals in src/report.py: add a yearly total",
} as const;

function script(repo: string): Script {
  const write = (file: string, text: string) => ({ toolCalls: [{ name: "write", arguments: { filePath: join(repo, file), content: text } }] });
  return {
    stages: [
      { id: "retry", when: SAY.retry, steps: [write("src/webhook.py", "# retry\n"), { text: "Added send_with_retry." }] },
      { id: "report", when: SAY.report, steps: [write("src/report.py", "# report\n"), { text: "Added monthly_totals." }] },
      { id: "backOne", when: SAY.backOne, steps: [{ text: "Capped the delay." }] },
      { id: "backTwo", when: SAY.backTwo, steps: [{ text: "Logged each attempt." }] },
      // A turn that is still running when its server is killed.
      { id: "yearly", when: SAY.yearly, steps: [{ text: "Added a yearly total." }] },
      {
        id: "slow",
        when: SAY.slow,
        steps: [{ toolCalls: [{ name: "bash", arguments: { command: "sleep 60", description: "slow check" } }] }, { text: "Checked." }],
      },
    ],
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-two-servers");
});
afterAll(async () => {
  await temp?.remove();
});

describe("two OpenCode processes of one project (issue 50)", () => {
  it("see the same unfinished tasks, resume a task once, and lose nothing when one is killed mid-turn", { timeout: 300_000 }, async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tool\n", "src/__init__.py": "" });
    const stateDir = join(temp.path, "state");
    const plugins = [[PLUGIN, { mode: "full", stateDir }]] satisfies PluginEntry[];
    const model = await startScriptedModel({ script: script(repo), logFile: join(temp.path, "model-requests.jsonl") });
    const servers: OpencodeServer[] = [];
    try {
      const home = await createIsolatedHome({ root: join(temp.path, "home"), config: offlineConfig({ modelBaseURL: model.url, plugins }) });
      const one = await startOpencodeServer({ home, cwd: repo });
      servers.push(one);
      const two = await startOpencodeServer({ home, cwd: repo });
      servers.push(two);
      const [clientOne, clientTwo] = [one.client(repo), two.client(repo)];
      const prompt = (client: typeof clientOne, sessionID: string, text: string) =>
        client.session.prompt({ sessionID, parts: [{ type: "text", text }] }, { throwOnError: true });
      const listed = async (except?: string) =>
        (await unfinishedTasks({ stateDir, now: new Date(), maxAgeDays: 14, maxTasks: 20, exceptSession: except })).tasks
          .map((task) => `${task.sessionID}/${task.taskId}`)
          .sort();

      const a = (await clientOne.session.create({}, { throwOnError: true })).data.id;
      await prompt(clientOne, a, SAY.retry);
      await prompt(clientOne, a, SAY.report);
      await expect.poll(async () => Object.keys((await sessionStateFile(stateDir, a).load()).value.records).sort(), { timeout: 30_000 }).toEqual(["t1", "t2"]);

      // A new session in each process, each naming A's t1 at the same moment.
      const b = (await clientOne.session.create({}, { throwOnError: true })).data.id;
      const c = (await clientTwo.session.create({}, { throwOnError: true })).data.id;
      expect(await listed(b)).toEqual(await listed(c));
      expect(await listed(b)).toEqual([`${a}/t1`, `${a}/t2`]);
      await Promise.all([prompt(clientOne, b, SAY.backOne), prompt(clientTwo, c, SAY.backTwo)]);
      const stateB = (await sessionStateFile(stateDir, b).load()).value;
      const stateC = (await sessionStateFile(stateDir, c).load()).value;
      const resumedBy = [stateB, stateC].filter((state) => state.ledger.tasks.some((task) => task.resumed?.session === a && task.resumed.task === "t1"));
      expect(resumedBy).toHaveLength(1);
      const taker = resumedBy[0]?.sessionID;
      const mark = (await readTaskMarks(stateDir)).marks[`${a}/t1`];
      expect(mark).toMatchObject({ mark: "resumed", by: `${taker}/t1` });
      // Taken: listed from both as the taker's task, A's t1 no more, and in use in the taker's process.
      expect(await listed()).toEqual([`${a}/t2`, `${b}/t1`, `${c}/t1`].sort());
      const taken = (await unfinishedTasks({ stateDir, now: new Date(), maxAgeDays: 14, maxTasks: 20 })).tasks.find((task) => task.sessionID === taker);
      expect(taken?.inUseBy).toBe((taker === b ? one : two).pid);

      const before = await listed();
      // The second process is killed mid-turn (its model call runs a minute-long command).
      const turn = prompt(clientTwo, c, SAY.slow).catch(() => undefined);
      await expect
        .poll(async () => (await model.requests()).some((request) => JSON.stringify(request.body).includes("slow integration check")), { timeout: 30_000 })
        .toBe(true);
      if (two.pid !== undefined) process.kill(-two.pid, "SIGKILL");
      await turn;
      servers.splice(servers.indexOf(two), 1);
      const marks = await readTaskMarks(stateDir);
      expect(marks.problem).toBeUndefined();
      for (const session of [a, b, c]) expect((await sessionStateFile(stateDir, session).peek()).status).toBe("loaded");
      // Nothing lost: every task still listed, and the surviving process still resumes and routes.
      expect(await listed()).toEqual(expect.arrayContaining(before));
      // The killed turn's request was routed (and written) before its model call.
      expect(Object.keys((await sessionStateFile(stateDir, c).load()).value.ledger.decisions)).toHaveLength(2);
      // A's t2 is resumed in the surviving process, with its record.
      const d = (await clientOne.session.create({}, { throwOnError: true })).data.id;
      await prompt(clientOne, d, SAY.yearly);
      const stateD = (await sessionStateFile(stateDir, d).load()).value;
      expect(stateD.ledger.tasks[0]?.resumed).toMatchObject({ session: a, task: "t2" });
      // What A's t2 settled reaches D through C: its record from A.
      expect(stateD.resumed?.t2?.records.length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const server of servers) await server.close();
      await model.close();
    }
  });
});
