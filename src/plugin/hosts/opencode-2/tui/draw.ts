import { createElement, insert, setProp } from "@opentui/solid";
import { panelElements } from "../../../session-views/panel-elements.js";
import type { PanelLine, Tone } from "../../../session-views/panel-lines.js";
import type { ThemeColour, TuiApi } from "./api.js";

// "@opentui/solid" and "solid-js" are OpenCode's own instances: 2.0.15 maps these module names
// when it loads a TUI plug-in, as 1.18 does (their types: opencode-1/tui/host-modules.d.ts).

/** The panel's lines as the host's elements, in its theme's colours. */
export function drawLines(api: TuiApi, lines: () => readonly PanelLine[]): unknown {
  return panelElements({ createElement, setProp, insert }, lines, (tone) => colour(api, tone));
}

function colour(api: TuiApi, tone: Tone): ThemeColour {
  const { text } = api.theme;
  switch (tone) {
    case "current":
      return text.action.primary.base;
    case "warning":
      return text.feedback.warning.base;
    case "muted":
      return text.muted;
    case "title":
    case "text":
      return text.base;
  }
}
