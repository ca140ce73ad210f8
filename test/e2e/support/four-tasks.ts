import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { get_encoding } from "tiktoken";
import type { Script } from "../../../src/lab/scripted-model/index.js";
import { type ChatRequestBody, messageText, type RecordedRequest } from "../../../src/lab/scripted-model/index.js";
import { type SessionState, SessionStateSchema } from "../../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../../src/plugin/store/state-dir.js";

// Four tasks in one repository, interleaved; the scripted model really edits files.
export const REQUESTS = {
  A1: "Add textkit/slugify.py with a slugify(text) function. It must lowercase the text and join words with hyphens.",
  B1: "Separate issue: the CSV exporter in exporters/csv_export.py must quote fields that contain commas; right now `export_rows` writes them raw.",
  C1: "New task: write docs/usage.md describing the --output and --verbose command line options.",
  D1: "Another task: add a settings loader in config/settings.py; it should read RCM_ENV and default to development.",
  A2: "Back to slugify: it must keep unicode letters instead of dropping them.",
  B2: "Back to the CSV exporter: also quote fields that contain newlines.",
  C2: "In docs/usage.md, also document the --quiet option.",
  D2: "In config/settings.py the loader should also accept an explicit env argument.",
  A3: "Back to slugify once more: never emit leading or trailing hyphens.",
  TASKS: "Which tasks are still open? Use rcm_tasks.",
} as const;

export const REPO_FILES = {
  "README.md": "# tools\n",
  "exporters/csv_export.py": "def quote(cell):\n    return cell\n\n\ndef export_rows(rows):\n    return '\\n'.join(','.join(row) for row in rows)\n",
};

/** Distinctive bytes of each exchange, to tell which exchanges a model request carried. */
export const EXCHANGE_MARKS = {
  A1: "Added slugify() in textkit/slugify.py.",
  A2: "slugify keeps unicode letters now.",
  A3: "No leading or trailing hyphens any more.",
  B1: "export_rows now quotes fields with commas.",
  C1: "Wrote docs/usage.md.",
  D1: "Wrote the settings loader.",
};

export function fourTaskScript(repo: string, options: { bigOutputIn?: keyof typeof REQUESTS } = {}): Script {
  const path = (file: string) => join(repo, file);
  const dump = {
    toolCalls: [
      { name: "bash", arguments: { command: "python3 -c \"print('\\n'.join('word%05d' % i for i in range(3000)))\"", description: "Dump the word list" } },
    ],
  };
  const stage = (id: keyof typeof REQUESTS, steps: Script["stages"][number]["steps"]) => ({
    id,
    when: REQUESTS[id],
    steps: options.bigOutputIn === id ? [dump, ...steps] : steps,
  });
  return {
    stages: [
      stage("A1", [
        {
          toolCalls: [
            {
              name: "write",
              arguments: {
                filePath: path("textkit/slugify.py"),
                content: "import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower())\n",
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: "bash",
              arguments: { command: "python3 -c \"from textkit.slugify import slugify; print(slugify('Hello World'))\"", description: "Try slugify" },
            },
          ],
        },
        { text: EXCHANGE_MARKS.A1 },
      ]),
      stage("B1", [
        {
          toolCalls: [
            {
              name: "edit",
              arguments: { filePath: path("exporters/csv_export.py"), oldString: "','.join(row)", newString: "','.join(quote(cell) for cell in row)" },
            },
          ],
        },
        { text: EXCHANGE_MARKS.B1 },
      ]),
      stage("C1", [
        { toolCalls: [{ name: "write", arguments: { filePath: path("docs/usage.md"), content: "# Usage\n\n--output FILE\n--verbose\n" } }] },
        { text: EXCHANGE_MARKS.C1 },
      ]),
      stage("D1", [
        {
          toolCalls: [
            {
              name: "write",
              arguments: { filePath: path("config/settings.py"), content: "import os\n\n\ndef load():\n    return os.environ.get('RCM_ENV', 'development')\n" },
            },
          ],
        },
        { text: EXCHANGE_MARKS.D1 },
      ]),
      stage("A2", [
        { toolCalls: [{ name: "edit", arguments: { filePath: path("textkit/slugify.py"), oldString: "[^a-z0-9]+", newString: "[^\\\\w]+" } }] },
        { text: EXCHANGE_MARKS.A2 },
      ]),
      stage("B2", [
        {
          toolCalls: [
            {
              name: "edit",
              arguments: {
                filePath: path("exporters/csv_export.py"),
                oldString: "return cell",
                newString: "return f'\"{cell}\"' if ',' in cell or '\\n' in cell else cell",
              },
            },
          ],
        },
        { text: "Newlines are quoted too." },
      ]),
      stage("C2", [
        { toolCalls: [{ name: "edit", arguments: { filePath: path("docs/usage.md"), oldString: "--verbose\n", newString: "--verbose\n--quiet\n" } }] },
        { text: "Documented --quiet." },
      ]),
      stage("D2", [
        { toolCalls: [{ name: "edit", arguments: { filePath: path("config/settings.py"), oldString: "def load():", newString: "def load(env=None):" } }] },
        { text: "load() takes env now." },
      ]),
      stage("TASKS", [
        { toolCalls: [{ name: "rcm_tasks", arguments: { action: "list" } }] },
        { toolCalls: [{ name: "rcm_tasks", arguments: { action: "show", task: "t2" } }] },
        { toolCalls: [{ name: "rcm_tasks", arguments: { action: "show" } }] },
        { text: "Four tasks are open." },
      ]),
      stage("A3", [
        {
          toolCalls: [{ name: "edit", arguments: { filePath: path("textkit/slugify.py"), oldString: "text.lower())", newString: "text.lower()).strip('-')" } }],
        },
        { text: EXCHANGE_MARKS.A3 },
      ]),
    ],
  };
}

/** The first model request of the turn that answers `text`: what the model saw when the request arrived. */
export function firstRequestFor(requests: readonly RecordedRequest[], text: string): ChatRequestBody {
  const found = requests.find((request) => {
    const messages = (request.body as ChatRequestBody).messages;
    return messageText(messages.findLast((message) => message.role === "user")?.content).includes(text);
  });
  if (!found) throw new Error(`no model request ends with ${JSON.stringify(text)}`);
  return found.body as ChatRequestBody;
}

export async function readState(stateDir: string, sessionID: string): Promise<SessionState | undefined> {
  try {
    return SessionStateSchema.parse(JSON.parse(await readFile(sessionStatePath(stateDir, sessionID), "utf8")).data);
  } catch {
    return undefined;
  }
}

/** Waits until the background memory update has written what `ready` looks for (it runs after session.idle). */
export async function waitForState(stateDir: string, sessionID: string, ready: (state: SessionState) => boolean, what: string): Promise<SessionState> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await readState(stateDir, sessionID);
    if (state && ready(state)) return state;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; state: ${JSON.stringify(state)?.slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** cl100k tokens of what a chat request sends as messages (text and tool-call arguments). */
export function countTokens(text: string): number {
  const encoding = get_encoding("cl100k_base");
  try {
    return encoding.encode(text).length;
  } finally {
    encoding.free();
  }
}

export function requestTokens(body: ChatRequestBody): number {
  return countTokens(
    body.messages
      .map((message) => `${message.role}: ${messageText(message.content)}${JSON.stringify((message as { tool_calls?: unknown }).tool_calls ?? "")}`)
      .join("\n"),
  );
}

/** The record message the plug-in put before the request, if any. */
export function recordTextIn(body: ChatRequestBody): string | undefined {
  const texts = body.messages.map((message) => messageText(message.content));
  return texts.find((text) => text.includes("<rcm-task-memory"));
}
