import { compactionThreshold, type ModelLimits } from "../core/context/model-window.js";

interface ModelRef {
  providerID: string;
  modelID: string;
}

/** A model's compaction threshold (see `compactionThreshold`); undefined when unknown or it never compacts. */
export type ThresholdOf = (model: ModelRef) => Promise<number | undefined>;

/** What the host knows of its models' windows: each model's limits, and the tokens its compaction keeps in reserve. */
export interface ModelLimitsRead {
  models: Array<ModelRef & { limit: ModelLimits }>;
  reserved?: number | undefined;
}

/**
 * The compaction thresholds of the host's models, read from the host (`read`) once per server;
 * a failed read is tried again at the next call rather than remembered.
 */
export function modelThresholds(read: () => Promise<ModelLimitsRead>): ThresholdOf {
  let known: Promise<Map<string, number | undefined>> | undefined;
  const thresholds = async (): Promise<Map<string, number | undefined>> => {
    const { models, reserved } = await read();
    return new Map(models.map((model) => [key(model), compactionThreshold(model.limit, reserved)]));
  };
  return async (model) => {
    known ??= thresholds().catch((error: unknown) => {
      known = undefined;
      throw error;
    });
    return (await known).get(key(model));
  };
}

function key(model: ModelRef): string {
  return `${model.providerID}/${model.modelID}`;
}
