import { describe, expect, it } from "vitest";
import { type ElementCalls, panelElements } from "../../src/plugin/session-views/panel-elements.js";
import type { PanelLine } from "../../src/plugin/session-views/panel-lines.js";

interface Node {
  tag: string;
  props: Record<string, unknown>;
  children: unknown[];
}

/** Elements as plain objects; an accessor child is read at once (the TUI re-reads it when what it reads changes). */
const recording: ElementCalls = {
  createElement: (tag) => ({ tag, props: {}, children: [] }) satisfies Node,
  setProp: (node, name, value) => {
    (node as Node).props[name] = value;
  },
  insert: (parent, value) => {
    const child = typeof value === "function" ? (value as () => unknown)() : value;
    (parent as Node).children.push(...(Array.isArray(child) ? child : [child]));
  },
};

describe("the panel's elements", () => {
  it("are a column of texts in their tone's colour, an indented line set in by a box", () => {
    const lines: PanelLine[] = [
      { text: "RCM · full", tone: "title" },
      { text: "t1 Slugify", tone: "current", indent: 2 },
    ];
    const column = panelElements(
      recording,
      () => lines,
      (tone) => `colour-of-${tone}`,
    ) as Node;
    expect(column).toEqual({
      tag: "box",
      props: { flexDirection: "column" },
      children: [
        { tag: "text", props: { fg: "colour-of-title" }, children: ["RCM · full"] },
        { tag: "box", props: { paddingLeft: 2 }, children: [{ tag: "text", props: { fg: "colour-of-current" }, children: ["t1 Slugify"] }] },
      ],
    });
  });
});
