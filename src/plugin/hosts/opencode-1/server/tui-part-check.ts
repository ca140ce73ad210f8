import { fileURLToPath } from "node:url";
import { namesThisPackage } from "../../../config/plugin-tuple.js";
import type { Toast } from "../../../session-views/toasts.js";
import { hasTuiPart } from "../../../store/tui-part-marker.js";

/**
 * The entry of this package in OpenCode's `plugin` list as a tui.json line can name it: the
 * spec of a tuple, a `file:` URL as its path; the npm name when the list does not show it.
 */
export function ourPluginEntry(plugins: unknown, packageDir: string): string {
  if (!Array.isArray(plugins)) return "opencode-rcm";
  for (const entry of plugins) {
    const spec: unknown = Array.isArray(entry) ? entry[0] : entry;
    if (typeof spec !== "string" || !namesThisPackage(spec, packageDir)) continue;
    if (!spec.startsWith("file:")) return spec;
    try {
      return fileURLToPath(spec);
    } catch {
      return spec;
    }
  }
  return "opencode-rcm";
}

/** The line that makes OpenCode load the TUI part. */
function tuiJsonLine(entry: string): string {
  return `{ "plugin": [${JSON.stringify(entry)}] }`;
}

/** What the server part says when the TUI it runs in has no TUI part: why there is no panel, and the line that brings it. */
export function missingTuiPartToast(entry: string): Toast {
  return {
    title: "opencode-rcm: TUI part not loaded",
    message: `No task panel and no /rcm: tui.json does not list opencode-rcm. Add to tui.json, next to opencode.json:\n${tuiJsonLine(entry)}\nthen restart OpenCode. Until then: /rcm-text status`,
    variant: "warning",
  };
}

/**
 * Once per process, when the first turn of a TUI whose server part this is ends: whether the
 * TUI part announced itself (tui-part-marker.ts), and if not, says so on screen and in the
 * log. Never throws: a failure is only logged.
 */
export function createTuiPartCheck(deps: {
  stateDir: string;
  pid: number;
  entry: () => Promise<string>;
  toast: (toast: Toast, duration: number) => Promise<void>;
  log: (message: string) => Promise<void>;
}): () => Promise<void> {
  let checked = false;
  return async () => {
    if (checked) return;
    checked = true;
    if (await hasTuiPart(deps.stateDir, deps.pid)) return;
    const shown = missingTuiPartToast(await deps.entry());
    await deps.log(`${shown.title}: ${shown.message.replace(/\n/g, " ")}`);
    await deps.toast(shown, 20_000);
  };
}
