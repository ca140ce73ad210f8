/** How the plug-in is listed in opencode.json: a bare path, or the `[path, options]` tuple. */
export type PluginEntry = string | [string, Record<string, unknown>];

/**
 * An opencode.json for quiet, reproducible runs: no autoupdate, sharing, snapshots or title
 * calls, every tool allowed, the given model and providers.
 */
export function quietConfig(options: { model: string; provider: Record<string, unknown>; plugins: readonly PluginEntry[] }): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    model: options.model,
    small_model: options.model,
    agent: { title: { disable: true } },
    permission: { edit: "allow", bash: "allow", webfetch: "deny", external_directory: "allow" },
    provider: options.provider,
    plugin: options.plugins,
  };
}

/** `quietConfig` for the scripted model: an OpenAI-compatible endpoint on loopback. */
export function offlineConfig(options: {
  modelBaseURL: string;
  plugins: readonly PluginEntry[];
  contextLimit?: number;
  outputLimit?: number;
}): Record<string, unknown> {
  return quietConfig({
    model: "scripted/scripted",
    plugins: options.plugins,
    provider: {
      scripted: {
        npm: "@ai-sdk/openai-compatible",
        name: "Scripted model",
        options: { baseURL: options.modelBaseURL, apiKey: "unused" },
        models: {
          scripted: {
            name: "scripted",
            tool_call: true,
            limit: { context: options.contextLimit ?? 200_000, output: options.outputLimit ?? 8_000 },
          },
        },
      },
    },
  });
}
