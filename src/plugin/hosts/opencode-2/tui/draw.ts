import { createElement, insert, setProp } from "@opentui/solid";
import type { PanelLine, Tone } from "../../../session-views/panel-lines.js";
import type { ThemeColour, TuiApi } from "./api.js";

// "@opentui/solid" and "solid-js" are OpenCode's own instances: 2.0.15 maps these module names
// when it loads a TUI plug-in, as 1.18 does (their types: opencode-1/tui/host-modules.d.ts).

/** The panel's lines as the host's elements: a column of texts, each in its tone's colour. */
export function drawLines(api: TuiApi, lines: () => readonly PanelLine[]): unknown {
  const column = createElement("box");
  setProp(column, "flexDirection", "column");
  insert(column, () => lines().map((line) => drawLine(api, line)));
  return column;
}

function drawLine(api: TuiApi, line: PanelLine): unknown {
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
