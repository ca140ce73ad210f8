/**
 * The plug-in settings a bench run hands to its OpenCode servers, which otherwise get a
 * private environment: every `RCM_*` variable of the bench's own environment (router, aux
 * model, memory updater...) and the variable that holds the aux model's key. The mode and
 * state directory come from the run itself and cannot be overridden this way.
 */
export function pluginEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const forwarded: Record<string, string> = {};
  const keyVariable = env["RCM_AUX_API_KEY_ENV"] || "RCM_AUX_API_KEY";
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || (!name.startsWith("RCM_") && name !== keyVariable)) continue;
    if (name === "RCM_MODE" || name === "RCM_STATE_DIR") continue;
    forwarded[name] = value;
  }
  return forwarded;
}
