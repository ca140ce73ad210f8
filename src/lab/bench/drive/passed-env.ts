import { RcmError } from "../../../kit/errors/rcm-error.js";

/**
 * `--pass-env NAME`: the variables (a provider's key, its base URL) handed to the bench's
 * OpenCode servers, which otherwise see none of this environment but the plug-in's `RCM_*`.
 * A name that is not set here is an error: the run would fail at its first model call.
 */
export function passedEnv(names: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new RcmError("usage", `--pass-env ${name}: not an environment variable name`);
    if (value === undefined || value === "")
      throw new RcmError("usage", `--pass-env ${name}: not set in this environment, so the OpenCode servers could not get it`);
    passed[name] = value;
  }
  return passed;
}
