import { stepUsages } from "../core/context/model-window.js";
import type { MessageWithParts } from "../core/messages.js";
import type { LiveSession } from "./live-session.js";
import type { ThresholdOf } from "./model-thresholds.js";

/** How many recent steps' output the room kept for the next step's output is taken from. */
const OUTPUT_STEPS = 4;

/**
 * How many estimated tokens a session's next call may carry before its step would reach the
 * model's compaction threshold. OpenCode counts what the provider reports, which includes
 * what the plug-in never sees (system prompt, tool definitions): that overhead is learned
 * from each step's reported prompt against what the plug-in sent for it. The step's own
 * output counts too: room is kept for the largest of the last few steps' outputs.
 */
export interface CallBudgets {
  /** Undefined when the model's limits are unknown or it never compacts. What it learns is kept on the session (`LiveSession.budget`). */
  budget(session: LiveSession, messages: readonly MessageWithParts[]): Promise<number | undefined>;
  /** The estimated tokens of the messages the call sent. */
  sent(session: LiveSession, tokens: number): void;
}

export function createCallBudgets(thresholdOf: ThresholdOf): CallBudgets {
  return {
    async budget(session, messages) {
      const model = messages.findLast((message) => message.info.role === "user")?.info;
      if (model?.role !== "user") return undefined;
      const threshold = await thresholdOf(model.model);
      if (threshold === undefined) return undefined;
      const learned = session.budget ?? { overhead: 0 };
      const last = messages.findLast((message) => message.info.role === "assistant" && message.info.summary !== true);
      const usage = last ? stepUsages([last])[0] : undefined;
      // The step that answered this plug-in's previous call: what it read beyond what was sent.
      if (last && usage && learned.sent !== undefined && learned.from !== last.info.id) {
        learned.overhead = Math.max(0, usage.prompt - learned.sent);
        learned.from = last.info.id;
      }
      session.budget = learned;
      const output = Math.max(
        0,
        ...stepUsages(messages)
          .slice(-OUTPUT_STEPS)
          .map((step) => step.output),
      );
      return threshold - learned.overhead - output;
    },
    sent(session, tokens) {
      session.budget = { ...(session.budget ?? { overhead: 0 }), sent: tokens };
    },
  };
}
