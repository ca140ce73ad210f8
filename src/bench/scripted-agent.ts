import { readFile } from "node:fs/promises";
import { z } from "zod";
import { isCompactionRequest, messageText } from "../scripted-model/index.js";
import type { ChatMessage, Reply, Responder, ToolCall } from "../scripted-model/index.js";
import { FINALIZE_REQUEST, parseRequestText } from "./drive/request-text.js";
import { FINALIZE } from "./suite/schema.js";

// A scripted "agent" for the benchmark pipeline: it plays a playbook instead of reasoning. It is
// a harness, not a model: it acts only on the request it is given (the latest user message) and
// keeps no state between calls, like the scripted model it runs behind.

const DEFAULT_CHECK_COMMAND = "python3 -m pytest -q -p no:cacheprovider tests/test_existing.py";
const COMPACTION_SUMMARY = "## Summary\n- Scripted agent: each task's files are written in its own workspace; nothing else is pending.";
const UNKNOWN_REQUEST = "I can't tell which task this is.";

/** A path relative to the workspace that stays inside it. */
function isInsidePath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.split("/").some((part) => part === ".." || part === "." || part === "");
}

export const PlaybookStageSchema = z.strictObject({
  /** The stage's request exactly as the suite words it (the text after `<workspace>: `). */
  request: z
    .string()
    .min(1)
    .refine((request) => request === request.trim(), { message: "must not start or end with whitespace" })
    .refine((request) => request !== FINALIZE_REQUEST, { message: "is the finalization request" }),
  /** Full contents of each file after this stage, by path relative to the workspace. */
  writes: z.record(z.string(), z.string()).superRefine((writes, context) => {
    const paths = Object.keys(writes);
    if (paths.length === 0) context.addIssue({ code: "custom", message: "at least one file is required" });
    for (const path of paths.filter((candidate) => !isInsidePath(candidate))) {
      context.addIssue({ code: "custom", path: [path], message: `"${path}" must be a relative path inside the workspace` });
    }
  }),
});

export const PlaybookTaskSchema = z.strictObject({
  stages: z.record(z.string(), PlaybookStageSchema).superRefine((stages, context) => {
    const ids = Object.keys(stages);
    if (ids.length === 0) context.addIssue({ code: "custom", message: "at least one stage is required" });
    for (const id of ids.filter((candidate) => candidate === "" || candidate === FINALIZE)) {
      context.addIssue({ code: "custom", path: [id], message: `"${id}" cannot be a stage id ("${FINALIZE}" is the last request)` });
    }
  }),
});

/** `agent.json`: what the scripted agent writes for each stage of each task. */
export const PlaybookSchema = z
  .strictObject({
    description: z.string().optional(),
    /** Run in the workspace after a stage's writes; its exit status is ignored. */
    checkCommand: z.string().min(1).default(DEFAULT_CHECK_COMMAND),
    tasks: z.record(z.string().min(1), PlaybookTaskSchema),
  })
  .superRefine((playbook, context) => {
    const seen = new Map<string, string>();
    for (const [taskId, task] of Object.entries(playbook.tasks)) {
      for (const [stageId, stage] of Object.entries(task.stages)) {
        const where = `${taskId}/${stageId}`;
        const earlier = seen.get(stage.request);
        if (earlier !== undefined) {
          context.addIssue({
            code: "custom",
            path: ["tasks", taskId, "stages", stageId, "request"],
            message: `same request as ${earlier}; the agent could not tell them apart`,
          });
        }
        seen.set(stage.request, where);
      }
    }
  });

export type Playbook = z.input<typeof PlaybookSchema>;
export type PlaybookStage = z.infer<typeof PlaybookStageSchema>;

/** Validates a playbook; throws `Error("<source>: <path>: <message>")` on the first problem. */
export function parsePlaybook(value: unknown, source = "playbook"): z.infer<typeof PlaybookSchema> {
  const result = PlaybookSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue === undefined ? "" : issue.path.map(String).join(".");
  const message = issue?.message ?? "invalid playbook";
  throw new Error(path === "" ? `${source}: ${message}` : `${source}: ${path}: ${message}`);
}

/** Reads and validates a playbook file (`agent.json`). */
export async function loadPlaybook(file: string): Promise<z.infer<typeof PlaybookSchema>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (cause) {
    throw new Error(`${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  return parsePlaybook(value, file);
}

interface KnownStage {
  stageId: string;
  writes: Record<string, string>;
}

type Recognised =
  | { kind: "stage"; workspace: string; stage: KnownStage }
  | { kind: "finalize"; workspace: string }
  | { kind: "unknown" };

/**
 * A Responder for the scripted model that plays `playbook`. For a stage request it writes the
 * stage's files and runs the check command in one step (step 0; one model call fewer per stage,
 * which keeps the mini suite's full run short; the check's output is not used), then reports
 * (step 1 on); for the
 * finalization request it shows `git status --short` (step 0), then says "Submitted.". The step
 * is the number of assistant messages after the latest user message.
 */
export function createScriptedAgent(playbook: Playbook): Responder {
  const parsed = parsePlaybook(playbook);
  const stages = new Map<string, KnownStage>();
  for (const task of Object.values(parsed.tasks)) {
    for (const [stageId, stage] of Object.entries(task.stages)) stages.set(stage.request, { stageId, writes: stage.writes });
  }
  return ({ body }) => replyTo({ messages: body.messages, stages, checkCommand: parsed.checkCommand });
}

function replyTo(options: { messages: ChatMessage[]; stages: Map<string, KnownStage>; checkCommand: string }): Reply {
  const { messages, stages, checkCommand } = options;
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser === -1) return { text: UNKNOWN_REQUEST };
  const content = messages[lastUser]?.content;
  if (isCompactionRequest(messageText(content))) return { text: COMPACTION_SUMMARY };
  const step = messages.slice(lastUser + 1).filter((message) => message.role === "assistant").length;
  const recognised = recognise({ content, stages });
  switch (recognised.kind) {
    case "stage": {
      const { workspace, stage } = recognised;
      if (step === 0) {
        return {
          toolCalls: [
            ...Object.entries(stage.writes).map(([path, text]) => writeCall(workspace, path, text)),
            bashCall(`cd ${shellQuote(workspace)} && ${checkCommand} || true`, "Run the tests"),
          ],
        };
      }
      return { text: `Done with ${stage.stageId}.` };
    }
    case "finalize":
      if (step === 0) return { toolCalls: [bashCall(`cd ${shellQuote(recognised.workspace)} && git status --short`, "Show the changes")] };
      return { text: "Submitted." };
    case "unknown":
      return { text: UNKNOWN_REQUEST };
  }
}

/**
 * Which request the user message is: the whole text, or failing that any one text part of it,
 * must be `<workspace>: <request>` with the request exactly a playbook stage's or the
 * finalization request.
 */
function recognise(options: { content: unknown; stages: Map<string, KnownStage> }): Recognised {
  const parts = Array.isArray(options.content) ? options.content.map((part: unknown) => messageText([part])) : [];
  for (const text of [messageText(options.content), ...parts]) {
    const parsed = parseRequestText(text);
    if (parsed === undefined) continue;
    if (parsed.request === FINALIZE_REQUEST) return { kind: "finalize", workspace: parsed.workspace };
    const stage = options.stages.get(parsed.request);
    if (stage !== undefined) return { kind: "stage", workspace: parsed.workspace, stage };
  }
  return { kind: "unknown" };
}

function writeCall(workspace: string, path: string, content: string): ToolCall {
  return { name: "write", arguments: { filePath: `${workspace.replace(/\/+$/, "")}/${path}`, content } };
}

function bashCall(command: string, description: string): ToolCall {
  return { name: "bash", arguments: { command, description } };
}

function shellQuote(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
