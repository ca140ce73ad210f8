import { at, escapeHtml, label, niceMax, svgElement, yAxis } from "../../svg/svg-kit.js";
import { linesOf, modesOf } from "../results/summaries.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { MODE_COLOURS } from "./palette.js";

const LEFT = 56;
const TOP = 26;
const PLOT = 150;
const WIDTH = 520;
const STROKE = 2.5;
/** Lines that lie on each other are drawn in turns of this many pixels each, so every mode's colour shows. */
const DASH = 7;
const COMPACTION_COLOUR = "#111827";

interface Series {
  mode: string;
  values: readonly number[];
  /** Model calls (positions in `values`) where OpenCode compacted, with how many of the series' sessions did. */
  compactions: ReadonlyMap<number, number>;
  sessions: number;
}

/** Reported input tokens of each model call of one session, a line per mode, OpenCode's compactions marked. */
export function sessionTokensChart(runs: readonly ResultLine[]): string {
  const series = runs.map((line) => ({ mode: line.mode, values: callInputs(line), compactions: countCompactions([line]), sessions: 1 }));
  return tokensChart(series, `${runs[0]?.session_id ?? ""}: input tokens (reported) per model call by mode`);
}

/** Mean reported input tokens at each model call's position over a condition's sessions, a line per mode. */
export function meanTokensChart(results: readonly ResultLine[], condition: ResultLine["condition"]): string {
  const series = modesOf(results).map((mode) => {
    const lines = linesOf(results, mode, condition);
    const calls = lines.map(callInputs);
    const longest = Math.max(0, ...calls.map((values) => values.length));
    const values = Array.from({ length: longest }, (_, index) => {
      const here = calls.flatMap((values) => (index < values.length ? [values[index] as number] : []));
      return here.reduce((sum, value) => sum + value, 0) / here.length;
    });
    return { mode, values, compactions: countCompactions(lines), sessions: lines.length };
  });
  return tokensChart(series, `${condition} sessions: mean input tokens (reported) per model call by mode`);
}

/**
 * The model calls where OpenCode compacted (the call that wrote the summary), as positions in
 * the line's calls in order, each with the number of lines that compacted there.
 */
function countCompactions(lines: readonly ResultLine[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of lines) {
    let offset = 0;
    for (const entry of line.timeline ?? []) {
      for (const position of entry.compactions ?? []) counts.set(offset + position, (counts.get(offset + position) ?? 0) + 1);
      offset += entry.call_input_tokens.length;
    }
  }
  return counts;
}

function tokensChart(series: readonly Series[], title: string): string {
  const calls = Math.max(1, ...series.map((one) => one.values.length));
  const width = WIDTH;
  const step = (WIDTH - LEFT - 24) / calls;
  const max = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const x = (index: number) => LEFT + step * index + step / 2;
  const y = (value: number) => TOP + PLOT - (PLOT * value) / max;
  const body = [
    label(LEFT, 14, title, { size: 11, weight: "bold" }),
    ...yAxis({
      x: LEFT,
      top: TOP,
      height: PLOT,
      width: width - LEFT - 10,
      max,
      format: (value) => (value >= 1000 ? `${Math.round(value / 100) / 10}k` : `${Math.round(value)}`),
    }),
  ];
  body.push(label(width - 12, TOP + PLOT + 16, "model call →", { anchor: "end", size: 10 }));
  const groups = overlapGroups(series, y);
  const legend = legendPlacer();
  series.forEach((one, index) => {
    const colour = MODE_COLOURS[one.mode] ?? "#000";
    const group = groups[index] as OverlapGroup;
    // Modes that compact at the same call get their marks side by side.
    const shift = (index - (series.length - 1) / 2) * 3;
    for (const [call, count] of [...one.compactions].sort(([a], [b]) => a - b)) {
      const where = one.sessions > 1 ? `${count} of ${one.sessions} sessions` : "OpenCode";
      const refused = one.sessions === 1 && one.values[call - 1] === 0 ? " (the call before, refused as too long, reports 0 input tokens)" : "";
      const mark = x(call) + shift;
      body.push(
        `<line class="compaction" data-mode="${one.mode}" x1="${at(mark)}" y1="${TOP}" x2="${at(mark)}" y2="${TOP + PLOT}" stroke="${colour}" stroke-width="1.5" stroke-dasharray="3 3"><title>${escapeHtml(`${one.mode}: ${where} compacted at model call ${call + 1}${refused}`)}</title></line>`,
        `<path d="M${at(mark - 4)},${TOP - 6} L${at(mark + 4)},${TOP - 6} L${at(mark)},${TOP} Z" fill="${colour}"/>`,
      );
    }
    if (one.values.length > 0) {
      const points = one.values.map((value, call) => `${at(x(call))},${at(y(value))}`).join(" ");
      const dash = group.size > 1 ? ` stroke-dasharray="${DASH} ${DASH * (group.size - 1)}" stroke-dashoffset="${DASH * group.rank}"` : "";
      body.push(
        `<polyline class="mark" data-mode="${one.mode}" points="${points}" fill="none" stroke="${colour}" stroke-width="${STROKE}" stroke-linejoin="round"${dash}/>`,
      );
    }
    const first = series[group.first] as Series;
    const name = group.rank === 0 ? one.mode : `${one.mode} (${first.values.join(",") === one.values.join(",") ? "same as" : "overlaps"} ${first.mode})`;
    const { left, top } = legend.place(name);
    body.push(`<rect x="${at(left)}" y="${top - 6}" width="12" height="4" fill="${colour}"/>`, label(left + 16, top, name, { size: 10 }));
  });
  if (series.some((one) => one.compactions.size > 0)) {
    const { left, top } = legend.place("compaction");
    body.push(
      `<line x1="${at(left + 6)}" y1="${top - 8}" x2="${at(left + 6)}" y2="${top + 2}" stroke="${COMPACTION_COLOUR}" stroke-width="1.5" stroke-dasharray="3 3"/>`,
      label(left + 16, top, "compaction", { size: 10 }),
    );
  }
  return svgElement({ width, height: legend.bottom() + 8, label: title, kind: "tokens", body });
}

/** Legend items left to right under the plot, on a new row when one would run past the chart. */
function legendPlacer() {
  let left = LEFT;
  let top = TOP + PLOT + 30;
  return {
    place(name: string): { left: number; top: number } {
      const width = 16 + name.length * 5.5 + 14;
      if (left > LEFT && left + width > WIDTH) {
        left = LEFT;
        top += 16;
      }
      const placed = { left, top };
      left += width;
      return placed;
    },
    bottom: () => top,
  };
}

interface OverlapGroup {
  /** The group's first series, its rank in the group, and how many series it has. */
  first: number;
  rank: number;
  size: number;
}

/**
 * Series whose lines lie within a stroke of each other on at least half of their common calls
 * are one group, drawn in turns (dashes) so that each one shows; a series on its own is a group
 * of one. `y` places a value on the chart.
 */
function overlapGroups(series: readonly Series[], y: (value: number) => number): OverlapGroup[] {
  const root = series.map((_one, index) => index);
  const find = (index: number): number => (root[index] === index ? index : find(root[index] as number));
  series.forEach((one, index) => {
    for (let earlier = 0; earlier < index; earlier += 1) {
      if (overlap(series[earlier] as Series, one, y)) root[find(index)] = find(earlier);
    }
  });
  return series.map((_one, index) => {
    const members = series.flatMap((_other, position) => (find(position) === find(index) ? [position] : []));
    return { first: members[0] ?? index, rank: members.indexOf(index), size: members.length };
  });
}

function overlap(a: Series, b: Series, y: (value: number) => number): boolean {
  const common = Math.min(a.values.length, b.values.length);
  if (common === 0) return false;
  const close = a.values.slice(0, common).filter((value, call) => Math.abs(y(value) - y(b.values[call] as number)) < STROKE).length;
  return close * 2 >= common;
}

function callInputs(line: ResultLine): number[] {
  return (line.timeline ?? []).flatMap((entry) => entry.call_input_tokens);
}
