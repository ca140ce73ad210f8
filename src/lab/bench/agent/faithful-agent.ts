import { isCompactionRequest, messageText, type Responder } from "../../scripted-model/index.js";
import { finalizeReply, stageReply, UNKNOWN_REQUEST } from "./agent-steps.js";
import { chooseWrites, type FaithfulChoice } from "./faithful-choice.js";
import type { FaithfulPlaybook } from "./faithful-playbook.js";
import { lossySummary } from "./lossy-summary.js";
import { recogniseRequest } from "./recognise-request.js";
import { whatWasSaid } from "./what-was-said.js";

/** One line of the faithful agent's log: what a call saw and what it wrote. */
export interface FaithfulDecision extends Omit<FaithfulChoice, "writes"> {
  /** The model call's arrival index (the request log's `index`). */
  index: number;
  workspace: string;
  task: string;
  stage: string;
  files: string[];
}

/**
 * A scripted agent faithful to its context: for a stage request it writes the files implied by
 * the requirements the call actually showed it (`chooseWrites`), so a requirement lost from the
 * context, or another task's leaking into it, becomes a failing held-out test. Like the replay
 * agent it keeps no state between calls and is deterministic; it answers a compaction with the
 * lossy summary. `onDecision` gets every write it decides, for the run's log.
 */
export function createFaithfulAgent(playbook: FaithfulPlaybook, options: { onDecision?: (decision: FaithfulDecision) => void } = {}): Responder {
  return ({ body, index }) => {
    const messages = body.messages;
    const latest = messages.findLast((message) => message.role === "user");
    if (latest !== undefined && isCompactionRequest(messageText(latest.content))) return { text: lossySummary(messageText(latest.content)) };
    const recognised = recogniseRequest(messages, playbook.requests, { continues: true });
    if (recognised.kind === "unknown") return { text: UNKNOWN_REQUEST };
    if (recognised.kind === "finalize") return finalizeReply(recognised.workspace, recognised.step);
    const {
      workspace,
      step,
      stage: { task, stage },
    } = recognised;
    if (step > 0) return stageReply({ workspace, stageId: stage.id, writes: {}, checkCommand: playbook.checkCommand, step });
    const { writes, ...choice } = chooseWrites(task, stage, whatWasSaid(messages));
    options.onDecision?.({ index, workspace, task: task.id, stage: stage.id, ...choice, files: Object.keys(writes) });
    return stageReply({ workspace, stageId: stage.id, writes, checkCommand: playbook.checkCommand, step });
  };
}
