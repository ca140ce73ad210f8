import type { ModelLimits } from "../../../core/context/model-window.js";
import type { ModelLimitsRead } from "../../../sessions/model-thresholds.js";
import type { PluginContext } from "./api.js";

/** The models OpenCode 2 knows with their limits (`ctx.model.list`); 2.0 has no `compaction.reserved`. */
export function contextModelLimits(model: PluginContext["model"]): () => Promise<ModelLimitsRead> {
  return async () => {
    const { data } = await model.list({});
    const models = data.map((info) => ({
      providerID: info.providerID,
      modelID: info.modelID,
      limit: {
        context: info.limit?.context ?? 0,
        output: info.limit?.output ?? 0,
        ...(info.limit?.input ? { input: info.limit.input } : {}),
      } satisfies ModelLimits,
    }));
    return { models };
  };
}
