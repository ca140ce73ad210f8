// The slice of OpenCode 2's plug-in API this host uses, declared here: 2.0.x publishes no type
// package. Read off the 2.0.15 binary (hosts/README.md says how); only what is read or written is
// declared, and the objects carry more. A later 2.0 build that moves one of these shapes fails the
// e2e tests in test/e2e/opencode-2.test.ts, not the compiler.

/** A text part of a message as a model request carries it. */
interface ContextTextContent {
  type: "text";
  text: string;
}

/** A tool call the assistant made (`id` pairs it with its result). */
export interface ContextToolCall {
  type: "tool-call";
  id: string;
  name: string;
  input: unknown;
  providerExecuted?: boolean;
}

/** A tool's result; `result.value` is the output (text or an object), `result.type` "error" when it failed. */
export interface ContextToolResult {
  type: "tool-result";
  id: string;
  name: string;
  result: { type: string; value?: unknown };
  providerExecuted?: boolean;
}

interface ContextReasoning {
  type: "reasoning";
  text: string;
}

export type ContextContent = ContextTextContent | ContextToolCall | ContextToolResult | ContextReasoning | { type: string };

/**
 * One message of a model request (`context` and `compaction` hooks): user and assistant
 * messages carry the stored message's id; tool results and system updates have none.
 */
export interface ContextMessage {
  id?: string;
  role: "user" | "assistant" | "tool" | "system";
  content: ContextContent[] | string;
  metadata?: Record<string, unknown> | null;
}

export interface ModelRef {
  id: string;
  providerID: string;
}

/** What `ctx.session.hook("context" | "compaction", ...)` hands over: changing `messages` changes this request only. */
export interface RequestEvent {
  sessionID: string;
  agent: string;
  model: ModelRef;
  messages: ContextMessage[];
  tools: Record<string, unknown>;
  /** `compaction` only: set to record the compaction with this summary and make no model call. */
  result?: { summary: string };
}

/** A stored message (`ctx.session.context`): one of many types; the plug-in reads these. */
export type StoredMessage =
  | { type: "user"; id: string; time: { created: number }; text: string }
  | { type: "synthetic"; id: string; time: { created: number }; text: string; metadata?: Record<string, unknown> }
  | {
      type: "assistant";
      id: string;
      time: { created: number; completed?: number };
      agent: string;
      model: ModelRef;
      content: StoredContent[];
      finish?: string;
      cost?: number;
      tokens?: { input: number; output: number; reasoning: number; cache: { read: number; write: number } };
      error?: unknown;
    }
  | { type: "compaction"; id: string; time: { created: number }; status?: string; summary?: string; reason?: string }
  | { type: string; id: string; time: { created: number } };

export type StoredContent =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | {
      type: "tool";
      id: string;
      name: string;
      state: { status: string; input?: unknown; output?: unknown; content?: unknown; error?: { message?: string } };
      time?: { created: number; ran?: number; completed?: number };
    }
  | { type: string };

interface SessionInfo {
  id: string;
  parentID?: string | null;
  title?: string;
  location?: { directory: string };
}

/** A command the plug-in adds: `execute` answers it; nothing reaches the model unless it prompts. */
export interface CommandDefinition {
  name: string;
  description: string;
  execute(input: { sessionID: string; prompt: { text: string }; delivery?: string }): Promise<void>;
}

/** What a tool's `execute` gets besides its input. */
interface ToolCallContext {
  sessionID: string;
  agent: string;
  messageID: string;
  id: string;
}

/** A tool the plug-in adds: `input` is a JSON Schema; `codemode: false` offers it as a top-level tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  input: Record<string, unknown>;
  options?: { codemode?: boolean };
  execute(input: unknown, context: ToolCallContext): Promise<{ content: ContextTextContent[] }>;
}

/** A model of `ctx.model.list`. */
interface ModelInfo {
  modelID: string;
  providerID: string;
  limit?: { context?: number; output?: number; input?: number };
}

/** An event of `ctx.event.subscribe()`. */
interface HostEvent {
  type: string;
  data?: { sessionID?: string; [key: string]: unknown };
}

/** `setup`'s argument: the parts of OpenCode 2's plug-in context this host uses. */
export interface PluginContext {
  options?: unknown;
  location: { directory: string; project: { id: string; directory: string } };
  session: {
    hook(name: "context" | "compaction", handler: (event: RequestEvent) => Promise<void>): unknown;
    get(input: { sessionID: string }): Promise<SessionInfo>;
    context(input: { sessionID: string }): Promise<StoredMessage[]>;
    create(input: { title?: string; location?: { directory: string } }): Promise<SessionInfo>;
    synthetic(input: { sessionID: string; text: string; description?: string; metadata?: Record<string, unknown>; resume?: boolean }): Promise<{ id: string }>;
  };
  command: { transform(edit: (editor: { add(command: CommandDefinition): void }) => void): unknown };
  tool: { transform(edit: (editor: { add(tool: ToolDefinition): void }) => void): unknown };
  model: { list(input: Record<string, never>): Promise<{ data: ModelInfo[] }> };
  generate: { text(input: { prompt: string; model?: ModelRef }): Promise<{ text: string }> };
  event: { subscribe(): AsyncIterable<HostEvent> };
}
