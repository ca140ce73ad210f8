// Type-only view of OpenCode's message shapes. The v2 SDK types are current; the v1
// types that @opencode-ai/plugin re-exports are stale (see the OpenCode notes).
import type { Message, Part, TextPart, ToolPart } from "@opencode-ai/sdk/v2";

export type { Message, Part, TextPart, ToolPart };

/** One stored message with its parts, as `experimental.chat.messages.transform` sees it. */
export interface MessageWithParts {
  info: Message;
  parts: Part[];
}
