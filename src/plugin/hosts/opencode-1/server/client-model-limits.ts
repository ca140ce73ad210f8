import type { PluginInput } from "@opencode-ai/plugin";
import type { ModelLimits } from "../../../core/context/model-window.js";
import type { ModelLimitsRead } from "../../../sessions/model-thresholds.js";

/** The models OpenCode knows with their limits (its providers' `limit`), and the config's `compaction.reserved`. */
export function clientModelLimits(client: PluginInput["client"]): () => Promise<ModelLimitsRead> {
  return async () => {
    const [providers, config] = await Promise.all([client.config.providers(), client.config.get()]);
    // The v1 Config type that the plug-in's client declares predates `compaction`.
    const reserved = (config.data as { compaction?: { reserved?: number } } | undefined)?.compaction?.reserved;
    const models = (providers.data?.providers ?? []).flatMap((provider) =>
      Object.entries(provider.models).map(([modelID, model]) => ({ providerID: provider.id, modelID, limit: model.limit as ModelLimits })),
    );
    return { models, reserved };
  };
}
