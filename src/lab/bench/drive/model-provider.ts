import { readFile } from "node:fs/promises";
import { messageOf } from "../../../kit/errors/message-of.js";
import { RcmError } from "../../../kit/errors/rcm-error.js";

/**
 * `--model <provider>/<model>` beside `--provider-config`: the provider must be one the file
 * names (its key under "provider", not its display name), or OpenCode fails the first call.
 * Returns the file's provider keys; none without a file (a provider OpenCode knows itself).
 */
export async function checkModelProvider(agent: { kind: string; model?: string; providerConfig?: string | undefined }): Promise<string[]> {
  if (agent.kind !== "model" || agent.model === undefined || agent.providerConfig === undefined) return [];
  const provider = agent.model.split("/")[0] ?? "";
  const names = await providerNames(agent.providerConfig);
  if (!names.includes(provider)) {
    const named = names.map((name) => `"${name}"`).join(", ") || "none";
    throw new RcmError(
      "provider-config",
      `--model ${agent.model}: --provider-config ${agent.providerConfig} has no provider "${provider}" (its keys: ${named}); --model is <provider key>/<model key> of that file`,
    );
  }
  return names;
}

async function providerNames(file: string): Promise<string[]> {
  return Object.keys(await readProviders(file));
}

/** `--provider-config`: opencode.json's `{"provider": {...}}` (or the section alone), the providers by key. */
export async function readProviders(file: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new RcmError("provider-config", `--provider-config ${file}: ${messageOf(error)}`);
  }
  const provider = typeof value === "object" && value !== null && "provider" in value ? (value as { provider: unknown }).provider : value;
  if (typeof provider !== "object" || provider === null || Array.isArray(provider)) {
    throw new RcmError("provider-config", `--provider-config ${file}: expected {"provider": {"<id>": {...}}}`);
  }
  return provider as Record<string, unknown>;
}
