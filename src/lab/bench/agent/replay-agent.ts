import type { Reply, Responder } from "../../scripted-model/index.js";
import { isCompactionRequest, messageText } from "../../scripted-model/index.js";
import { finalizeReply, stageReply, UNKNOWN_REQUEST } from "./agent-steps.js";
import { lossySummary } from "./lossy-summary.js";
import { type Playbook, parsePlaybook } from "./playbook.js";
import { recogniseRequest } from "./recognise-request.js";

// The replay agent: it plays a suite's playbook instead of reasoning. A harness for the
// benchmark pipeline, not a model: it acts only on the request it is given (the latest user
// message), whatever else the call shows, and keeps no state between calls.

interface KnownStage {
  stageId: string;
  writes: Record<string, string>;
}

/**
 * A Responder for the scripted model that plays `playbook` (`agent-steps.ts`: a stage's files
 * and the check command, then a report; for the finalization, `git status`, then "Submitted.").
 * The step is the number of assistant messages after the latest user message.
 */
export function createScriptedAgent(playbook: Playbook): Responder {
  const parsed = parsePlaybook(playbook);
  const stages = new Map<string, KnownStage>();
  for (const task of Object.values(parsed.tasks)) {
    for (const [stageId, stage] of Object.entries(task.stages)) stages.set(stage.request, { stageId, writes: stage.writes });
  }
  return ({ body }) => replyTo({ body: body.messages, stages, checkCommand: parsed.checkCommand });
}

function replyTo(options: { body: Parameters<Responder>[0]["body"]["messages"]; stages: Map<string, KnownStage>; checkCommand: string }): Reply {
  const { body: messages, stages, checkCommand } = options;
  const latest = messages.findLast((message) => message.role === "user");
  if (latest !== undefined && isCompactionRequest(messageText(latest.content))) return { text: lossySummary(messageText(latest.content)) };
  const recognised = recogniseRequest(messages, stages, { continues: false });
  switch (recognised.kind) {
    case "stage":
      return stageReply({
        workspace: recognised.workspace,
        stageId: recognised.stage.stageId,
        writes: recognised.stage.writes,
        checkCommand,
        step: recognised.step,
      });
    case "finalize":
      return finalizeReply(recognised.workspace, recognised.step);
    case "unknown":
      return { text: UNKNOWN_REQUEST };
  }
}
