import type { redactSecretsInAll as Redact } from "../core/redaction/redact-secrets.js";

let loaded: Promise<typeof Redact> | undefined;

/**
 * The redactor, loaded on the first request to an auxiliary model: its detector library is
 * large, and a plug-in without an aux model (the default) never needs it in OpenCode's process.
 */
export async function redactSecretsInAll(texts: readonly string[]): Promise<string[]> {
  loaded ??= import("../core/redaction/redact-secrets.js").then((module) => module.redactSecretsInAll);
  return (await loaded)(texts);
}
