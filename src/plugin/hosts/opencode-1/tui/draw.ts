import type { TuiPluginApi } from "@opencode-ai/plugin/tui";
import { createElement, insert, setProp } from "@opentui/solid";
import { panelElements } from "../../../session-views/panel-elements.js";
import type { PanelLine, Tone } from "../../../session-views/panel-lines.js";

/** The panel's lines as the host's elements, in its theme's colours. */
export function drawLines(api: TuiPluginApi, lines: () => readonly PanelLine[]): unknown {
  return panelElements({ createElement, setProp, insert }, lines, (tone) => colour(api, tone));
}

function colour(api: TuiPluginApi, tone: Tone): unknown {
  const theme = api.theme.current;
  switch (tone) {
    case "title":
      return theme.primary;
    case "current":
      return theme.accent;
    case "warning":
      return theme.warning;
    case "muted":
      return theme.textMuted;
    case "text":
      return theme.text;
  }
}
