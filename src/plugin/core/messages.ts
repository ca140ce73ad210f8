// The conversation as the plug-in reads it: messages with their parts. These are the plug-in's own
// declarations, not a host's: OpenCode 1.18 hands its stored messages in this shape (its v2 message
// model; hosts/opencode-1 checks at compile time that they still fit), and another host's adapter
// would hand the same. Only what the plug-in reads or writes is declared; the objects carry more.

/** Token counts of a model call, as the host reports them. */
export interface TokenCounts {
  total?: number;
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
}

export interface UserMessage {
  id: string;
  sessionID: string;
  role: "user";
  time: { created: number };
  agent: string;
  model: { providerID: string; modelID: string; variant?: string };
  system?: string;
  /** Tools switched on or off for this request (the plug-in's tool gates write it). */
  tools?: { [key: string]: boolean };
}

export interface AssistantMessage {
  id: string;
  sessionID: string;
  role: "assistant";
  time: { created: number; completed?: number };
  /** Why the call failed, when it did. */
  error?: { name: string; data: unknown };
  /** The user message this answers. */
  parentID: string;
  modelID: string;
  providerID: string;
  mode: string;
  agent: string;
  path: { cwd: string; root: string };
  /** True for a compaction's summary. */
  summary?: boolean;
  cost: number;
  tokens: TokenCounts;
  finish?: string;
}

export type Message = UserMessage | AssistantMessage;

interface PartBase {
  id: string;
  sessionID: string;
  messageID: string;
}

export interface TextPart extends PartBase {
  type: "text";
  text: string;
  /** Written for the model by a program, not typed by the person. */
  synthetic?: boolean;
  /** For the person only: the model never gets it. */
  ignored?: boolean;
  time?: { start: number; end?: number };
  metadata?: { [key: string]: unknown };
}

type ToolInput = { [key: string]: unknown };

export type ToolState =
  | { status: "pending"; input: ToolInput; raw: string }
  | { status: "running"; input: ToolInput; title?: string; metadata?: { [key: string]: unknown }; time: { start: number } }
  | {
      status: "completed";
      input: ToolInput;
      output: string;
      title: string;
      metadata: { [key: string]: unknown };
      /** `compacted`: when the host cleared this output from later calls. */
      time: { start: number; end: number; compacted?: number };
    }
  | { status: "error"; input: ToolInput; error: string; metadata?: { [key: string]: unknown }; time: { start: number; end: number } };

export interface ToolPart extends PartBase {
  type: "tool";
  callID: string;
  tool: string;
  state: ToolState;
  metadata?: { [key: string]: unknown };
}

/** Marks the user message that asked for a compaction. */
interface CompactionPart extends PartBase {
  type: "compaction";
  auto: boolean;
  overflow?: boolean;
}

interface FilePart extends PartBase {
  type: "file";
  mime: string;
  filename?: string;
  url: string;
}

interface ReasoningPart extends PartBase {
  type: "reasoning";
  text: string;
}

interface StepFinishPart extends PartBase {
  type: "step-finish";
  reason: string;
  cost: number;
  tokens: TokenCounts;
}

/** Parts the plug-in passes along without reading them. */
interface OtherPart extends PartBase {
  type: "subtask" | "step-start" | "snapshot" | "patch" | "agent" | "retry";
}

export type Part = TextPart | ToolPart | CompactionPart | FilePart | ReasoningPart | StepFinishPart | OtherPart;

/** One stored message with its parts, as the host hands the history for a model call. */
export interface MessageWithParts {
  info: Message;
  parts: Part[];
}
