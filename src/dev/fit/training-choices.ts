import { type LabelledSession, SHARED_LABEL } from "../../lab/route-eval/labelled-sessions.js";
import { NEW_TASK_FEATURES, routingFeatures, SHARED_FEATURES, TASK_FEATURES } from "../../plugin/core/routing/routing-features.js";
import { extractSignals } from "../../plugin/core/routing/signals.js";
import { TaskIndex } from "../../plugin/core/routing/task-index.js";
import { taskTitle } from "../../plugin/core/routing/task-title.js";
import type { Choice } from "./conditional-logit.js";

/** A training choice and the group (repository) it came from, for grouped cross-validation. */
export interface GroupedChoice extends Choice {
  group: string;
}

/** Number of weights: the task features, the new-task features, the shared-instruction features. */
export const PARAMETER_COUNT = TASK_FEATURES.length + NEW_TASK_FEATURES.length + SHARED_FEATURES.length;
/** The biases of "new" and "shared" are intercepts: not penalised. */
export const INTERCEPTS = [
  TASK_FEATURES.length + NEW_TASK_FEATURES.indexOf("bias"),
  TASK_FEATURES.length + NEW_TASK_FEATURES.length + SHARED_FEATURES.indexOf("bias"),
];

/**
 * The router's choices along labelled sessions, with the gold history (teacher forcing):
 * before each request, the index holds exactly what the earlier requests' gold tasks did, as
 * the plug-in's index would after correct decisions. Each request after the first is one
 * choice among the existing tasks, "new" and "shared" (meant for every task). Task ids are
 * `t1`, `t2`... in opening order, as the ledger numbers them.
 */
export function trainingChoices(sessions: readonly LabelledSession[]): GroupedChoice[] {
  const choices: GroupedChoice[] = [];
  for (const session of sessions) {
    const index = new TaskIndex();
    const idOf = new Map<string, string>();
    for (const request of session.requests) {
      const shared = request.task === SHARED_LABEL;
      const known = idOf.get(request.task);
      if (index.size > 0) {
        const features = routingFeatures({ text: request.text, signals: extractSignals(request.text), index });
        const none = (names: readonly string[]) => names.map(() => 0);
        const candidates = [
          ...features.tasks.map((candidate) => [...candidate.values, ...none(NEW_TASK_FEATURES), ...none(SHARED_FEATURES)]),
          [...none(TASK_FEATURES), ...features.fresh, ...none(SHARED_FEATURES)],
          [...none(TASK_FEATURES), ...none(NEW_TASK_FEATURES), ...features.shared],
        ];
        const chosen = shared
          ? candidates.length - 1
          : known === undefined
            ? candidates.length - 2
            : features.tasks.findIndex((candidate) => candidate.task.id === known);
        choices.push({ candidates, chosen, group: session.repo ?? session.id });
      }
      if (shared) {
        index.countRequest();
        continue;
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
