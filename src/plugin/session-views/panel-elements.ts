import type { PanelLine, Tone } from "./panel-lines.js";

/**
 * The element calls of the TUI's renderer (OpenTUI's `createElement`, `setProp`, `insert`), as
 * both OpenCode hosts hand them to a TUI part: passed in, so the panel's layout is written once
 * and below the seam, while only the hosts import the renderer.
 */
export interface ElementCalls {
  createElement(tag: string): unknown;
  setProp(node: unknown, name: string, value: unknown): unknown;
  /** A child: an element, a string, or an accessor re-run when what it reads changes. */
  insert(parent: unknown, value: unknown): unknown;
}

/** The panel's lines as the host's elements: a column of texts, each in its tone's colour (`colour`: the host's theme). */
export function panelElements(ui: ElementCalls, lines: () => readonly PanelLine[], colour: (tone: Tone) => unknown): unknown {
  const column = ui.createElement("box");
  ui.setProp(column, "flexDirection", "column");
  ui.insert(column, () => lines().map((line) => lineElement(ui, line, colour)));
  return column;
}

function lineElement(ui: ElementCalls, line: PanelLine, colour: (tone: Tone) => unknown): unknown {
  const text = ui.createElement("text");
  ui.setProp(text, "fg", colour(line.tone));
  ui.insert(text, line.text);
  if (!line.indent) return text;
  // Set in by a box, not by spaces, so a wrapped line keeps its indent.
  const indented = ui.createElement("box");
  ui.setProp(indented, "paddingLeft", line.indent);
  ui.insert(indented, text);
  return indented;
}
