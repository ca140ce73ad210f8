import { extractSignals } from "../../core/routing/signals.js";
import { NEW_TASK_FEATURES, routingFeatures, TASK_FEATURES } from "../../core/routing/routing-features.js";
import { TaskIndex } from "../../core/routing/task-index.js";
import { taskTitle } from "../../core/routing/task-title.js";
import { SHARED_LABEL, type LabelledSession } from "../labelled-sessions.js";
import type { Choice } from "./conditional-logit.js";

/** A training choice and the group (repository) it came from, for grouped cross-validation. */
export interface GroupedChoice extends Choice {
  group: string;
}

/** Number of weights: the task features, then the new-task features. */
export const PARAMETER_COUNT = TASK_FEATURES.length + NEW_TASK_FEATURES.length;
/** The new-task bias is an intercept: not penalised. */
export const INTERCEPTS = [TASK_FEATURES.length + NEW_TASK_FEATURES.indexOf("bias")];

/**
 * The router's choices along labelled sessions, with the gold history (teacher forcing):
 * before each request, the index holds exactly what the earlier requests' gold tasks did, as
 * the plug-in's index would after correct decisions. Each request after the first that is
 * not a shared instruction is one choice among the existing tasks and "new". Task ids are
 * `t1`, `t2`... in opening order, as the ledger numbers them.
 */
export function trainingChoices(sessions: readonly LabelledSession[]): GroupedChoice[] {
  const choices: GroupedChoice[] = [];
  for (const session of sessions) {
    const index = new TaskIndex();
    const idOf = new Map<string, string>();
    for (const request of session.requests) {
      if (request.task === SHARED_LABEL) {
        index.countRequest();
        continue;
      }
      const known = idOf.get(request.task);
      if (index.size > 0) {
        const features = routingFeatures({ text: request.text, signals: extractSignals(request.text), index });
        const candidates = [
          ...features.tasks.map((candidate) => [...candidate.values, ...NEW_TASK_FEATURES.map(() => 0)]),
          [...TASK_FEATURES.map(() => 0), ...features.fresh],
        ];
        const chosen = known === undefined ? candidates.length - 1 : features.tasks.findIndex((candidate) => candidate.task.id === known);
        choices.push({ candidates, chosen, group: session.repo ?? session.id });
      }
      let id = known;
      if (id === undefined) {
        id = `t${idOf.size + 1}`;
        idOf.set(request.task, id);
        index.addTask(id, taskTitle(request.text));
      }
      index.current = id;
      index.addEvidence(id, {
        text: request.text,
        ...(request.files ? { paths: request.files } : {}),
        ...(request.workspace ? { workspaces: [request.workspace] } : {}),
      });
    }
  }
  return choices;
}
