import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, messageText, type Script } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { requestFor } from "./support/everyday-session.js";

const PLUGIN = builtEntry("./server");
const THRESHOLD = 0.8;

// Issue 45: three cued openings, then two returns that name their task, its file and its
// function; a task opened as "the weekly digest" and a return by that name alone (two everyday
// words); an uncued opening that creates its own file, and a follow-up naming what it made.
// A person has no doubt where each follow-up belongs; the router must not either.
const SAY = {
  alpha: "Task alpha: in src/alpha.py add parse_alpha that splits a comma-separated line into fields",
  beta: "Separate task beta: in src/beta.py add format_beta that renders a record as a padded table row",
  gamma: "Another task gamma: in src/gamma.py add count_gamma that tallies the words on each line",
  betaAgain: "Back to task beta: format_beta in src/beta.py should right-align the numbers",
  alphaAgain: "Back to task alpha: parse_alpha in src/alpha.py must also strip whitespace",
  digest: "Separate thing: the weekly digest email in src/digest.py should skip users who unsubscribed",
  digestAgain: "about the weekly digest again: send it on Mondays",
  cron: "Create src/cron/parse.py that parses five-field cron expressions into a schedule",
  cronAgain: "the cron parser should also accept @daily and @hourly",
} as const;
type Key = keyof typeof SAY;
type Task = "alpha" | "beta" | "gamma" | "digest" | "cron";
const TASK_OF: Record<Key, Task> = {
  alpha: "alpha",
  beta: "beta",
  gamma: "gamma",
  betaAgain: "beta",
  alphaAgain: "alpha",
  digest: "digest",
  digestAgain: "digest",
  cron: "cron",
  cronAgain: "cron",
};
const FILE_OF: Record<Task, string> = { alpha: "src/alpha.py", beta: "src/beta.py", gamma: "src/gamma.py", digest: "src/digest.py", cron: "src/cron/parse.py" };
const RETURNS = ["betaAgain", "alphaAgain", "digestAgain", "cronAgain"] as const satisfies readonly Key[];

/** Each opening writes its file, each return edits it; every reply names its request. */
function script(repo: string): Script {
  const file = (task: Task) => join(repo, FILE_OF[task]);
  const body: Record<string, string> = {
    alpha: "def parse_alpha(line):\n    return line.split(',')\n",
    beta: "def format_beta(record):\n    return ' | '.join(str(value) for value in record)\n",
    gamma: "def count_gamma(lines):\n    return [len(line.split()) for line in lines]\n",
    digest: "def weekly_digest(users):\n    return [user for user in users if user.subscribed]\n",
    cron: "def parse_cron(expression):\n    return expression.split()\n",
  };
  return {
    stages: (Object.keys(SAY) as Key[]).map((key) => {
      const task = TASK_OF[key];
      const content = body[key];
      const change =
        content === undefined
          ? { name: "edit", arguments: { filePath: file(task), oldString: "\n", newString: `\n# ${key}\n` } }
          : { name: "write", arguments: { filePath: file(task), content } };
      return { id: key, when: SAY[key], steps: [{ toolCalls: [change] }, { text: `REPLY-${key.toUpperCase()}: done.` }] };
    }),
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-cued-returns-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("returns that name their task, file and function in the real OpenCode (issue 45)", () => {
  it("narrows each follow-up to its own task, whole, and carries nothing of the others", { timeout: 240_000 }, async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tool\n", "src/__init__.py": "" });
    const plugins = [[PLUGIN, { mode: "router", debug: true, stateDir: join(temp.path, "state") }]] satisfies PluginEntry[];
    await withScriptedOpencode({ runDir: join(temp.path, "run"), directory: repo, script: script(repo), plugins }, async ({ client, model, prompt }) => {
      const session = await client.session.create({}, { throwOnError: true });
      const sessionID = session.data.id;
      const keys = Object.keys(SAY) as Key[];
      for (const key of keys) await prompt(sessionID, SAY[key]);

      const requests = await model.requests();
      const lines: string[] = [];
      for (const key of RETURNS) {
        const body = requestFor(requests, SAY[key]);
        const messages = (JSON.parse(body) as ChatRequestBody).messages;
        const debug = /\[opencode-rcm debug\][^\n]*/.exec(messageText(messages.findLast((message) => message.role === "user")?.content))?.[0] ?? "";
        const routed = /task=(\S+) confidence=(\S+) /.exec(debug);
        // What the model got: which earlier requests and replies its call carried.
        const carried = keys.filter((other) => other !== key && body.includes(SAY[other].slice(0, 40)));
        const replies = keys.filter((other) => other !== key && body.includes(`REPLY-${other.toUpperCase()}`));
        lines.push(
          `${key}: task=${routed?.[1] ?? "-"} confidence=${routed?.[2] ?? "-"} carried requests [${carried.join(", ")}] replies [${replies.join(", ")}]`,
        );
        const own = TASK_OF[key];
        expect(Number(routed?.[2] ?? 0), debug).toBeGreaterThanOrEqual(THRESHOLD);
        // Its own task whole: every earlier request and reply of it; nothing of the other two.
        const expected = keys.filter((other) => other !== key && keys.indexOf(other) < keys.indexOf(key) && TASK_OF[other] === own);
        expect(carried, lines.join("\n")).toEqual(expected);
        expect(replies, lines.join("\n")).toEqual(expected);
      }
      console.log(`what each follow-up's model call carried:\n${lines.join("\n")}`);
    });
  });
});
