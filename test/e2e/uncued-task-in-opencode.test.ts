import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import type { PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { withScriptedOpencode } from "../../src/lab/harness/scripted-session.js";
import { type ChatRequestBody, messageText, type RecordedRequest, type Script } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { requestFor } from "./support/everyday-session.js";

const PLUGIN = builtEntry("./server");
const THRESHOLD = 0.8;

type Kind = "parser" | "export" | "docs";

// Issue 33, as a new user typed it: a parser task, a cued export task, then docs work that
// never says "new task" and shares words (export, --delimiter) with the export task.
const SAY = {
  parser: "parse_date in src/parser.py accepts 2024-13-45; make it reject impossible months and days.",
  export: "separate thing: export_csv in src/export.py should quote fields that contain commas.",
  usage: "docs/usage.md should document the export command and its --out flag",
  delimiterDoc: "in the usage doc, mention the new delimiter option too",
  february: "parse_date should also reject February 30",
  troubleshooting: "docs: add a troubleshooting section to usage.md for files that will not open",
  delimiter: "export_csv should also accept a --delimiter option",
  example: "in usage.md also show the --delimiter flag in an example",
  german: "Zurück zum Parser: parse_date soll auch das deutsche Format 05.01.2024 akzeptieren",
  doubledQuotes: "quick one on src/export.py: a field with a double quote inside needs it doubled",
  typo: "usage doc: the --out example has a typo, it says --ouput",
} as const;
type Key = keyof typeof SAY;

const KIND: Record<Key, Kind> = {
  parser: "parser",
  export: "export",
  usage: "docs",
  delimiterDoc: "docs",
  february: "parser",
  troubleshooting: "docs",
  delimiter: "export",
  example: "docs",
  german: "parser",
  doubledQuotes: "export",
  typo: "docs",
};

// Follow-ups that name their task's function or file: nothing else should claim them.
const ANCHORED: readonly Key[] = ["february", "delimiter", "german", "doubledQuotes"];

const OPENINGS = { parser: "parser", export: "export", docs: "usage" } as const satisfies Record<Kind, Key>;

/** Openings write their file, follow-ups edit it, so each task really touches its own file. */
function uncuedScript(repo: string): Script {
  const file = { parser: join(repo, "src", "parser.py"), export: join(repo, "src", "export.py"), docs: join(repo, "docs", "usage.md") };
  const writes: Partial<Record<Key, string>> = {
    parser:
      "import datetime\n\n\ndef parse_date(text):\n    year, month, day = (int(part) for part in text.split('-'))\n    return datetime.date(year, month, day)\n",
    export:
      "def export_csv(rows):\n    return '\\n'.join(','.join(quote(cell) for cell in row) for row in rows)\n\n\ndef quote(cell):\n    return f'\"{cell}\"' if ',' in cell else cell\n",
    usage: "# Usage\n\n    tool export data.json --out data.csv\n",
  };
  // Each edit adds a line under an anchor that stays unique, so edits never collide.
  const anchor: Record<Kind, string> = { parser: "def parse_date(text):\n", export: "def export_csv(rows):\n", docs: "# Usage\n" };
  const note = (kind: Kind, key: Key) => (kind === "docs" ? `\n<!-- ${key} -->\n` : `    # ${key}\n`);
  return {
    stages: (Object.keys(SAY) as Key[]).map((key) => {
      const kind = KIND[key];
      const content = writes[key];
      const change =
        content === undefined
          ? { name: "edit", arguments: { filePath: file[kind], oldString: anchor[kind], newString: `${anchor[kind]}${note(kind, key)}` } }
          : { name: "write", arguments: { filePath: file[kind], content } };
      return { id: key, when: SAY[key], steps: [{ toolCalls: [change] }, { text: `REPLY-${key.toUpperCase()}: done.` }] };
    }),
  };
}

interface Decision {
  key: Key;
  /** The task the request was filed to, confident or not; undefined when not routed. */
  task: string | undefined;
  confidence: number | undefined;
  kept: string;
  body: string;
}

/** The router's decision for `text`, read from the debug line of the first model request of its turn. */
function decisionFor(requests: readonly RecordedRequest[], key: Key): Decision {
  const body = requestFor(requests, SAY[key]);
  const messages = (JSON.parse(body) as ChatRequestBody).messages;
  const text = messageText(messages.findLast((message) => message.role === "user")?.content);
  const line = /\[opencode-rcm debug\][^\n]*/.exec(text)?.[0];
  if (line === undefined) throw new Error(`no debug annotation in the model request for ${JSON.stringify(SAY[key])}`);
  const routed = /task=(\S+) confidence=(\S+) /.exec(line);
  const kept = /kept=(.*)$/.exec(line)?.[1] ?? "(no narrowing note)";
  return { key, task: routed?.[1], confidence: routed ? Number(routed[2]) : undefined, kept, body };
}

const confident = (decision: Decision) => decision.task !== undefined && (decision.confidence ?? 0) >= THRESHOLD;

function table(decisions: readonly Decision[]): string {
  const row = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padStart(2) : cell.padEnd([0, 6, 4, 6, 60][column] ?? 0))).join(" | ");
  const rows = decisions.map((d, index) => row([String(index + 1), KIND[d.key], d.task ?? "-", String(d.confidence ?? "-"), SAY[d.key].slice(0, 60), d.kept]));
  return [row(["#", "kind", "task", "conf", "request", "kept"]), ...rows].join("\n");
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-uncued-e2e");
});
afterAll(async () => {
  await temp?.remove();
});

describe("an uncued docs task in the real OpenCode (issue 33)", () => {
  it("never narrows a docs request to the export or parser task, nor a code request to another kind's task", { timeout: 300_000 }, async () => {
    const repo = join(temp.path, "repo");
    await createGitRepo(repo, { "README.md": "# tool\n" });
    const plugins = [[PLUGIN, { mode: "router", debug: true, stateDir: join(temp.path, "state") }]] satisfies PluginEntry[];
    await withScriptedOpencode({ runDir: join(temp.path, "run"), directory: repo, script: uncuedScript(repo), plugins }, async ({ client, model, prompt }) => {
      const session = await client.session.create({}, { throwOnError: true });
      const sessionID = session.data.id;
      const keys = Object.keys(SAY) as Key[];
      for (const key of keys) await prompt(sessionID, SAY[key]);

      const requests = await model.requests();
      const decisions = keys.map((key) => decisionFor(requests, key));
      const of = (key: Key) => decisions.find((d) => d.key === key) as Decision;
      const parserTask = "t1";
      const exportTask = "t2";
      // Docs has a task of its own only if its opening opened one; filed under t1 or t2
      // (surely or not), every docs request must fall back to the full history.
      const docsOpening = of("usage").task;
      const docsTask = docsOpening === parserTask || docsOpening === exportTask ? undefined : docsOpening;
      const home: Record<Kind, string | undefined> = { parser: parserTask, export: exportTask, docs: docsTask };

      const violations: string[] = [];
      const where = (d: Decision) =>
        `#${keys.indexOf(d.key) + 1} ${KIND[d.key]} ${JSON.stringify(SAY[d.key].slice(0, 40))}: task=${d.task ?? "-"} confidence=${d.confidence ?? "-"}`;
      if (of("parser").task !== parserTask) violations.push(`${where(of("parser"))}: the first request should open t1`);
      if (of("export").task !== exportTask) violations.push(`${where(of("export"))}: "separate thing:" should open t2`);
      for (const d of decisions.slice(3)) {
        if (!confident(d)) continue;
        const kind = KIND[d.key];
        // Issue 33's invariant: no kind is ever surely in another kind's task; docs without
        // a task of its own is never sure at all.
        const holder = (Object.keys(home) as Kind[]).find((other) => other !== kind && home[other] === d.task);
        if (holder !== undefined) violations.push(`${where(d)}: confidently in the ${holder} task`);
        else if (kind === "docs" && docsTask === undefined) violations.push(`${where(d)}: confident although docs has no task of its own`);
        // And what it narrowed to must not show the other tasks' openings.
        for (const opening of Object.values(OPENINGS)) {
          const filed = of(opening).task;
          if (filed === undefined || filed === d.task) continue;
          if (d.body.includes(SAY[opening].slice(0, 30))) violations.push(`${where(d)}: shows ${filed}'s opening ${JSON.stringify(SAY[opening].slice(0, 30))}`);
        }
      }
      for (const key of ANCHORED) {
        const d = of(key);
        if (!confident(d) || d.task !== home[KIND[key]])
          violations.push(`${where(d)}: names its ${KIND[key]} function or file, so should be confident in ${home[KIND[key]]}`);
      }

      const report = `decisions (docs task: ${docsTask ?? "none of its own"}):\n${table(decisions)}`;
      console.log(report);
      expect(violations, report).toEqual([]);
    });
  });
});
