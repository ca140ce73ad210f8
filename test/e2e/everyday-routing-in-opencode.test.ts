import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import type { Script } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { answers, requestFor } from "./support/everyday-session.js";

const PLUGIN = builtEntry("./server");

// Three everyday tasks in one repository (a doc, a parser, a helper), written as people write.
const SAY = {
  doc: "Draft docs/setup.md: how to install the tool and run the first sync.",
  parser: "New task: the date parser in src/dates/parse.py accepts 2023-02-30; make parse_date reject impossible dates.",
  helper: "Separately, add a slugify helper in src/util/slugify.py that lowercases titles and joins words with hyphens.",
  docFile: "In docs/setup.md, list the supported platforms.",
  parserNouns: "For the date parser, also reject day 0.",
  helperFile: "in src/util/slugify.py strip accents too",
  windows: "and a note for windows users",
  parserAgain: "For the date parser, accept ISO week dates as well.",
  docWhileOff: "In docs/setup.md, add an uninstall paragraph.",
  helperNouns: "the slugify helper should collapse repeated hyphens",
} as const;

/** Each request gets a reply that names it; the three openings write their task's file for real. */
function everydayScript(repo: string): Script {
  const writes: Partial<Record<keyof typeof SAY, [string, string]>> = {
    doc: ["docs/setup.md", "# Setup\n\nInstall, then run `tool sync`.\n"],
    parser: ["src/dates/parse.py", "def parse_date(text):\n    raise ValueError(text)\n"],
    helper: ["src/util/slugify.py", "def slugify(title):\n    return '-'.join(title.lower().split())\n"],
  };
  return {
    stages: Object.entries(SAY).map(([key, text]) => {
      const write = writes[key as keyof typeof SAY];
      const reply = { text: `REPLY-${key.toUpperCase()}: done.` };
      return {
        id: key,
        when: text,
        steps: write ? [{ toolCalls: [{ name: "write", arguments: { filePath: join(repo, write[0]), content: write[1] } }] }, reply] : [reply],
      };
    }),
  };
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-everyday-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("everyday routing in the real OpenCode", () => {
  it("narrows every file- or noun-anchored follow-up to its task, opens a task on 'New task:', and keeps doing so after /rcm move and /rcm off, on (routing what was sent while off)", async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tool\n" });
    const plugins = [[PLUGIN, { mode: "router", debug: true, stateDir: join(temp.path, "state") }]] satisfies PluginEntry[];
    await withScriptedOpencode(
      { runDir: join(temp.path, "run"), directory: repo, script: everydayScript(repo), plugins },
      async ({ client, model, prompt, messages }) => {
        const session = await client.session.create({}, { throwOnError: true });
        const sessionID = session.data.id;
        const command = async (args: string): Promise<string> => {
          await client.session.command({ sessionID, command: "rcm-text", arguments: args });
          const answer = answers(await messages(sessionID)).at(-1);
          if (answer === undefined) throw new Error(`no answer to /rcm ${args}`);
          return answer;
        };
        /** What the model saw first for `text`: its own task's history and no other's, surely. */
        const expectNarrowed = async (text: string, task: string, own: readonly string[], others: readonly string[]) => {
          const body = requestFor(await model.requests(), text);
          expect(body).toMatch(new RegExp(`task=${task} confidence=(0\\.[89]\\d*|1) kept=`));
          for (const mine of own) expect(body).toContain(mine.slice(0, 30));
          for (const other of others) expect(body).not.toContain(other.slice(0, 30));
        };

        for (const text of [SAY.doc, SAY.parser, SAY.helper]) await prompt(sessionID, text);
        // "New task:" and "Separately," open tasks, surely: each is shown alone.
        await expectNarrowed(SAY.parser, "t2", [], [SAY.doc]);
        await expectNarrowed(SAY.helper, "t3", [], [SAY.doc, SAY.parser]);

        for (const text of [SAY.docFile, SAY.parserNouns, SAY.helperFile]) await prompt(sessionID, text);
        await expectNarrowed(SAY.docFile, "t1", [SAY.doc], [SAY.parser, SAY.helper]);
        await expectNarrowed(SAY.parserNouns, "t2", [SAY.parser], [SAY.doc, SAY.helper, SAY.docFile]);
        await expectNarrowed(SAY.helperFile, "t3", [SAY.helper], [SAY.doc, SAY.parser, SAY.docFile, SAY.parserNouns]);

        // The user files a loose remark under the doc; later anchored requests still find their tasks.
        await prompt(sessionID, SAY.windows);
        expect(await command("move t1")).toMatch(/^\/rcm-text move t1\nMoved request \d+ from t\d+ to t1/);
        await prompt(sessionID, SAY.parserAgain);
        await expectNarrowed(SAY.parserAgain, "t2", [SAY.parser, SAY.parserNouns], [SAY.doc, SAY.helper, SAY.windows]);

        expect(await command("off")).toContain("off for this session");
        await prompt(sessionID, SAY.docWhileOff);
        const native = requestFor(await model.requests(), SAY.docWhileOff);
        for (const text of [SAY.doc, SAY.parser, SAY.helper]) expect(native).toContain(text.slice(0, 30));
        expect(await command("on")).toContain("on again");
        await prompt(sessionID, SAY.helperNouns);
        // The request made while off is routed once it is on again (to the doc task): it no longer rides along in every task.
        await expectNarrowed(SAY.helperNouns, "t3", [SAY.helper, SAY.helperFile], [SAY.doc, SAY.parser, SAY.docFile, SAY.docWhileOff]);
      },
    );
  });
});
