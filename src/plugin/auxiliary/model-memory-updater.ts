import { applyProposal } from "../core/memory/apply-proposal.js";
import { truncateDigest } from "../core/memory/batches.js";
import type { GroupDigest } from "../core/memory/group-digest.js";
import type { TaskRecord } from "../core/memory/record.js";
import { RecordProposalSchema } from "../core/memory/record-proposal.js";
import type { BatchLimits, MemoryUpdater } from "../core/memory/updater.js";
import type { AuxClient } from "./aux-client.js";
import { auxUsageOf, describeAuxError } from "./aux-usage.js";
import { completeJson } from "./complete-json.js";
import { loadPrompt, renderPrompt } from "./prompts.js";
import { redactDigests } from "./redact-digests.js";

/**
 * The `model` memory updater: the auxiliary model turns the previous record and a bounded
 * batch of new groups into a proposal; `applyProposal` enforces the rules on it. A reply
 * that fails validation (after `completeJson`'s one retry) leaves the previous record.
 */
export function createModelMemoryUpdater(client: AuxClient, limits: BatchLimits): MemoryUpdater {
  return {
    name: "model",
    everyTurn: false,
    limits,
    async update(input) {
      const template = await loadPrompt("memory");
      const result = await completeJson({
        client,
        name: "task_record",
        schema: RecordProposalSchema,
        system: "You maintain a coding task's memory record from its interaction history. Reply with JSON only.",
        user: renderPrompt(template, {
          task: `${input.task.id} (${input.task.title})`,
          previous: describePrevious(input.previous),
          // Redacted before cutting, so a cut never leaves half a secret the redactor cannot recognise.
          groups: (await redactDigests(input.batch)).map((group) => describeGroup(truncateDigest(group))).join("\n\n"),
        }),
        sessionID: input.sessionID,
      });
      const aux = auxUsageOf(result);
      if (!result.ok) {
        const reason = describeAuxError(result.error);
        return { ok: false, reason, aux: { ...aux, error: reason } };
      }
      return { ok: true, record: applyProposal({ input, proposal: result.value, updater: "model", aux }) };
    },
  };
}

function describePrevious(record: TaskRecord | undefined): string {
  if (!record) return "(none yet: this is the task's first update)";
  const view = {
    goal: record.goal,
    constraints: record.constraints.filter((constraint) => constraint.supersededBy === undefined).map(({ id, text, sources }) => ({ id, text, sources })),
    progress: record.progress.map((item) => item.text),
    pending: record.pending,
    files: record.files,
    uncertainties: record.uncertainties,
  };
  return JSON.stringify(view, null, 2);
}

// Tool outputs are fenced as data, so instructions inside them read as what they are.
function describeGroup(group: GroupDigest): string {
  const lines = [`### Group ${group.id} (${group.kind})`];
  if (group.requestID && group.requestText !== "") lines.push(`[user message ${group.requestID}]:\n${group.requestText}`);
  for (const step of group.steps) {
    if (step.kind === "text") {
      lines.push(`[assistant ${step.messageID}, a claim]: ${step.text}`);
      continue;
    }
    const { call } = step;
    lines.push(
      `[tool call ${call.callID}: ${call.tool}, ${call.status}${call.exit !== undefined && call.exit !== null ? `, exit ${call.exit}` : ""}] input: ${JSON.stringify(call.input)}`,
    );
    const observed = call.output ?? call.error;
    // An output cannot close its own fence.
    if (observed !== undefined) lines.push(`<tool-output call="${call.callID}">\n${observed.replaceAll("</tool-output", "<\\/tool-output")}\n</tool-output>`);
  }
  if (group.aborted) lines.push("(a step of this group was aborted)");
  for (const error of group.errors) lines.push(`(an assistant step failed: ${error})`);
  return lines.join("\n");
}
