import { at, label, svgElement, yAxis } from "../../svg/svg-kit.js";
import { gapPoints, hasResumed, linesOf, modesOf, resolvedRate } from "../results/summaries.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { CONDITIONS } from "../suite/schema.js";
import { MODE_COLOURS } from "./palette.js";

const LEFT = 48;
const TOP = 62;
const PLOT = 180;
const GROUP = 170;
const BAR = 48;

/**
 * Resolution per mode: an uninterrupted and a switched bar side by side (switched drawn
 * solid, uninterrupted pale; a resumed bar, half pale, after them in a run that has it), the gap
 * in points over each pair and its near/far split under it.
 */
export function resolutionChart(results: readonly ResultLine[]): string {
  const modes = modesOf(results);
  const width = LEFT + GROUP * modes.length + 16;
  const body = [...yAxis({ x: LEFT, top: TOP, height: PLOT, width: GROUP * modes.length, max: 1, format: (value) => `${Math.round(value * 100)}%` })];
  // A third bar per mode only in a run with resumed sessions: other charts stay as they were.
  const conditions = CONDITIONS.filter((condition) => condition !== "resumed" || hasResumed(results));
  modes.forEach((mode, index) => {
    const left = LEFT + GROUP * index + (GROUP - conditions.length * BAR - (conditions.length - 1) * 8) / 2;
    conditions.forEach((condition, position) => {
      const group = linesOf(results, mode, condition);
      const rate = resolvedRate(group);
      const x = left + position * (BAR + 8);
      const colour = MODE_COLOURS[mode] ?? "#000";
      if (rate !== undefined) {
        const height = Math.max(1, PLOT * rate);
        const fill = condition === "switched" ? `fill="${colour}"` : `fill="${colour}" fill-opacity="${condition === "resumed" ? "0.7" : "0.35"}"`;
        body.push(
          `<rect class="mark" data-mode="${mode}" data-condition="${condition}" x="${at(x)}" y="${at(TOP + PLOT - height)}" width="${BAR}" height="${at(height)}" ${fill}><title>${mode} ${condition}: ${Math.round(rate * 100)}% of ${group.length}</title></rect>`,
        );
        body.push(label(x + BAR / 2, TOP + PLOT - height - 4, `${Math.round(rate * 100)}%`, { anchor: "middle", size: 10 }));
      }
      body.push(label(x + BAR / 2, TOP + PLOT + 14, condition === "uninterrupted" ? "uninterr." : condition, { anchor: "middle", size: 10 }));
    });
    const centre = LEFT + GROUP * index + GROUP / 2;
    const points = (value: number | undefined) => (value === undefined ? "-" : `${value.toFixed(1)} pts`);
    body.push(label(centre, TOP + PLOT + 32, mode, { anchor: "middle", size: 12, weight: "bold" }));
    body.push(label(centre, 16, `gap ${points(gapPoints(results, mode))}`, { anchor: "middle", size: 11, weight: "bold" }));
    body.push(
      label(centre, 30, `near ${points(gapPoints(results, mode, "near"))} · far ${points(gapPoints(results, mode, "far"))}`, { anchor: "middle", size: 10 }),
    );
  });
  return svgElement({
    width,
    height: TOP + PLOT + 44,
    label: "Resolution per mode and condition, with the gap and its near/far split",
    kind: "resolution",
    body,
  });
}
