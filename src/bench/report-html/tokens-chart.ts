import { at, label, niceMax, svgElement, yAxis } from "../../svg/svg-kit.js";
import { linesOf, modesOf } from "../results/summaries.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { MODE_COLOURS } from "./palette.js";

const LEFT = 56;
const TOP = 26;
const PLOT = 150;
const WIDTH = 520;
/** Lines drawn widest first, so a mode hidden under another's identical line still shows at its edges. */
const STROKES = [6, 4, 2.5, 1.5];

interface Series {
  mode: string;
  values: readonly number[];
}

/** Input tokens of each model call of one session, a line per mode. */
export function sessionTokensChart(runs: readonly ResultLine[]): string {
  const series = runs.map((line) => ({ mode: line.mode, values: callInputs(line) }));
  return tokensChart(series, `${runs[0]?.session_id ?? ""}: input tokens per model call by mode`);
}

/** Mean input tokens at each model call's position over a condition's sessions, a line per mode. */
export function meanTokensChart(results: readonly ResultLine[], condition: ResultLine["condition"]): string {
  const series = modesOf(results).map((mode) => {
    const calls = linesOf(results, mode, condition).map(callInputs);
    const longest = Math.max(0, ...calls.map((values) => values.length));
    const values = Array.from({ length: longest }, (_, index) => {
      const here = calls.flatMap((values) => (index < values.length ? [values[index] as number] : []));
      return here.reduce((sum, value) => sum + value, 0) / here.length;
    });
    return { mode, values };
  });
  return tokensChart(series, `${condition} sessions: mean input tokens per model call by mode`);
}

function tokensChart(series: readonly Series[], title: string): string {
  const calls = Math.max(1, ...series.map((one) => one.values.length));
  const width = WIDTH;
  const step = (WIDTH - LEFT - 24) / calls;
  const max = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const x = (index: number) => LEFT + step * index + step / 2;
  const y = (value: number) => TOP + PLOT - (PLOT * value) / max;
  const body = [label(LEFT, 14, title, { size: 11, weight: "bold" }), ...yAxis({ x: LEFT, top: TOP, height: PLOT, width: width - LEFT - 10, max, format: (value) => (value >= 1000 ? `${Math.round(value / 100) / 10}k` : `${Math.round(value)}`) })];
  body.push(label(width - 12, TOP + PLOT + 16, "model call →", { anchor: "end", size: 10 }));
  series.forEach((one, index) => {
    const colour = MODE_COLOURS[one.mode] ?? "#000";
    if (one.values.length > 0) {
      const points = one.values.map((value, call) => `${at(x(call))},${at(y(value))}`).join(" ");
      body.push(`<polyline class="mark" data-mode="${one.mode}" points="${points}" fill="none" stroke="${colour}" stroke-width="${STROKES[index] ?? 1.5}" stroke-linejoin="round"/>`);
    }
    body.push(`<rect x="${LEFT + index * 90}" y="${TOP + PLOT + 24}" width="12" height="4" fill="${colour}"/>`, label(LEFT + 16 + index * 90, TOP + PLOT + 30, one.mode, { size: 10 }));
  });
  return svgElement({ width, height: TOP + PLOT + 38, label: title, kind: "tokens", body });
}

function callInputs(line: ResultLine): number[] {
  return (line.timeline ?? []).flatMap((entry) => entry.call_input_tokens);
}
