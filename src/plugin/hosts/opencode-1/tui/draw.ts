import type { TuiPluginApi } from "@opencode-ai/plugin/tui";
import { createElement, insert, setProp } from "@opentui/solid";
import type { PanelLine, Tone } from "../../../session-views/panel-lines.js";

/** The panel's lines as the host's elements: a column of texts, each in its tone's colour. */
export function drawLines(api: TuiPluginApi, lines: () => readonly PanelLine[]): unknown {
  const column = createElement("box");
  setProp(column, "flexDirection", "column");
  insert(column, () => lines().map((line) => drawLine(api, line)));
  return column;
}

function drawLine(api: TuiPluginApi, line: PanelLine): unknown {
  const text = createElement("text");
  setProp(text, "fg", colour(api, line.tone));
  insert(text, line.text);
  if (!line.indent) return text;
  // Set in by a box, not by spaces, so a wrapped line keeps its indent.
  const indented = createElement("box");
  setProp(indented, "paddingLeft", line.indent);
  insert(indented, text);
  return indented;
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
