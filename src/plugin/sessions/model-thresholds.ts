import type { PluginInput } from "@opencode-ai/plugin";
import { compactionThreshold, type ModelLimits } from "../core/context/model-window.js";

export interface ModelRef {
  providerID: string;
  modelID: string;
}

/** A model's compaction threshold (see `compactionThreshold`); undefined when unknown or it never compacts. */
export type ThresholdOf = (model: ModelRef) => Promise<number | undefined>;

/**
 * The compaction thresholds of the models OpenCode knows, read from OpenCode itself (its
 * providers' `limit` and the config's `compaction.reserved`) once per server; a failed read
 * is tried again at the next call rather than remembered.
 */
export function modelThresholds(client: PluginInput["client"]): ThresholdOf {
  let known: Promise<Map<string, number | undefined>> | undefined;
  const read = async (): Promise<Map<string, number | undefined>> => {
    const [providers, config] = await Promise.all([client.config.providers(), client.config.get()]);
    // The v1 Config type that the plug-in's client declares predates `compaction`.
    const reserved = (config.data as { compaction?: { reserved?: number } } | undefined)?.compaction?.reserved;
    const out = new Map<string, number | undefined>();
    for (const provider of providers.data?.providers ?? []) {
      for (const [modelID, model] of Object.entries(provider.models)) {
        out.set(key({ providerID: provider.id, modelID }), compactionThreshold(model.limit as ModelLimits, reserved));
      }
    }
    return out;
  };
  return async (model) => {
    known ??= read().catch((error: unknown) => {
      known = undefined;
      throw error;
    });
    return (await known).get(key(model));
  };
}

function key(model: ModelRef): string {
  return `${model.providerID}/${model.modelID}`;
}
