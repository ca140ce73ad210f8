import { envLayer } from "../../../plugin/config/env-layer.js";
import { resolveOptions } from "../../../plugin/config/resolve-options.js";

/**
 * The plug-in settings a bench run hands to its OpenCode servers, which otherwise get a
 * private environment: every `RCM_*` variable of the bench's own environment (router, aux
 * model, memory updater...) and the variable that holds the aux model's key. The mode, the
 * state directory and the fallback (the paper's full history) come from the run itself and
 * cannot be overridden this way.
 */
export function pluginEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const forwarded: Record<string, string> = {};
  const keyVariable = env.RCM_AUX_API_KEY_ENV || "RCM_AUX_API_KEY";
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || (!name.startsWith("RCM_") && name !== keyVariable)) continue;
    if (name === "RCM_MODE" || name === "RCM_STATE_DIR" || name === "RCM_FALLBACK") continue;
    forwarded[name] = value;
  }
  return forwarded;
}

/**
 * The confidence threshold the plug-in runs with in a bench run: the opencode.json tuple the
 * run writes holds only the mode and the state directory, so it is `RCM_CONFIDENCE_THRESHOLD`
 * among the forwarded variables, resolved as the plug-in resolves it (an invalid value gives
 * the default), else the default.
 */
export function pluginConfidenceThreshold(forwarded: Readonly<Record<string, string>>): number {
  return resolveOptions([envLayer(forwarded)]).options.confidenceThreshold;
}
