import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, messageText, type Script } from "../../src/lab/scripted-model/index.js";
import { sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { makeTempDir } from "../support/temp-dir.js";
import { requestFor } from "./support/everyday-session.js";

// Issue 50 in the real OpenCode 1.18: session A works on two tasks and ends; a new session
// resumes one of them by naming it, with its record in the first model call and nothing of
// the other; another new session's unrelated request brings nothing in.
const PLUGIN = builtEntry("./server");

const SAY = {
  retry: "Task one: in src/webhook.py add send_with_retry that retries a failed webhook POST three times with exponential backoff",
  retryMore: "send_with_retry must also give up on a 4xx answer without retrying",
  report: "Separate task: in src/report.py add monthly_totals that sums invoice amounts per month",
  back: "Back to send_with_retry in src/webhook.py: cap the delay between attempts at 30 seconds",
  unrelated: "Write docs/install.md explaining how to install the tool with pipx",
} as const;
type Key = keyof typeof SAY;
const FILE: Record<Key, string> = {
  retry: "src/webhook.py",
  retryMore: "src/webhook.py",
  report: "src/report.py",
  back: "src/webhook.py",
  unrelated: "docs/install.md",
};

function script(repo: string): Script {
  return {
    stages: (Object.keys(SAY) as Key[]).map((key) => ({
      id: key,
      when: SAY[key],
      steps: [
        { toolCalls: [{ name: "write", arguments: { filePath: join(repo, FILE[key]), content: `# ${key}\n` } }] },
        { text: `REPLY-${key.toUpperCase()}: done.` },
      ],
    })),
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-resume-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("a task resumed in a new session of the real OpenCode (issue 50)", () => {
  it("brings the named task's record into the first call, nothing of the other task, and nothing for an unrelated request", { timeout: 240_000 }, async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tool\n", "src/__init__.py": "" });
    const stateDir = join(temp.path, "state");
    const plugins = [[PLUGIN, { mode: "full", stateDir }]] satisfies PluginEntry[];
    await withScriptedOpencode({ runDir: join(temp.path, "run"), directory: repo, script: script(repo), plugins }, async ({ client, model, prompt }) => {
      const a = (await client.session.create({}, { throwOnError: true })).data.id;
      for (const key of ["retry", "report", "retryMore"] as const) await prompt(a, SAY[key]);
      // Session A's records are written after its turns, in the background.
      await expect
        .poll(
          async () =>
            (await sessionStateFile(stateDir, a).peek()).status === "loaded" &&
            (await sessionStateFile(stateDir, a).load()).value.records.t1?.coverage.groups.length,
          {
            timeout: 30_000,
          },
        )
        .toBe(2);

      const b = (await client.session.create({}, { throwOnError: true })).data.id;
      await prompt(b, SAY.back);
      const c = (await client.session.create({}, { throwOnError: true })).data.id;
      await prompt(c, SAY.unrelated);

      const requests = await model.requests();
      const first = (text: string) => JSON.parse(requestFor(requests, text)) as ChatRequestBody;
      const backCall = first(SAY.back);
      const backText = backCall.messages.map((message) => messageText(message.content)).join("\n");
      const users = backCall.messages.filter((message) => message.role === "user").map((message) => messageText(message.content));
      console.log(`session B's first model call, its user messages:\n${users.map((text) => `  ${text.replaceAll("\n", "\n  ")}`).join("\n")}`);
      expect(backText).toContain("goes on from an earlier session");
      // Its record: both asks of the retry task, in the user's words.
      expect(backText).toContain("exponential backoff");
      expect(backText).toMatch(/4xx/);
      // Never the old session's raw history, nor anything of the other task.
      expect(backText).not.toContain("REPLY-RETRY");
      expect(backText).not.toMatch(/monthly_totals|report\.py|REPLY-REPORT/);
      const stateB = (await sessionStateFile(stateDir, b).load()).value;
      expect(stateB.ledger.tasks[0]).toMatchObject({ id: "t1", resumed: { session: a, task: "t1", by: "router" } });

      const unrelatedCall = first(SAY.unrelated);
      const unrelatedText = unrelatedCall.messages.map((message) => messageText(message.content)).join("\n");
      expect(unrelatedText).not.toContain("goes on from an earlier session");
      expect(unrelatedText).not.toMatch(/send_with_retry|monthly_totals/);
      const stateC = (await sessionStateFile(stateDir, c).load()).value;
      expect(stateC.ledger.tasks.map((task) => task.resumed)).toEqual([undefined]);
    });
  });
});
