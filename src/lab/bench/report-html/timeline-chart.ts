import { modeParts } from "../../../plugin/config/modes.js";
import { clip } from "../../../plugin/core/clip.js";
import { at, escapeHtml, label, svgElement } from "../../svg/svg-kit.js";
import type { ResultLine, TimelineEntry } from "../run-dir/result-line.js";
import { CONFIDENCE_BINS, type ConfidenceBin, confidenceColour, UNROUTED_COLOUR } from "./palette.js";

const LEFT = 150;
const TOP = 22;
const LANE = 22;
const STEP = 24;

/**
 * One session run's requests in order, a lane per task (the focus first): each request a dot
 * coloured by the router's confidence, continuations smaller, fallbacks to the full history
 * ringed with a dashed circle; a resumed run's new OpenCode sessions are dashed lines. Grey dots: requests whose history the plug-in did not narrow
 * (native; memory, which routes only to file its records). `bins`: the confidence bins at the
 * run's threshold.
 */
export function timelineChart(line: ResultLine, bins: readonly ConfidenceBin[] = CONFIDENCE_BINS): string {
  // Mode memory routes only to file its records: every call keeps every task's history, so its decisions are not drawn.
  const narrows = modeParts(line.mode).narrows;
  const timeline = (line.timeline ?? []).map((entry) => (narrows ? entry : withoutRouting(entry)));
  const lanes = [line.focus, ...new Set(timeline.map((entry) => entry.task).filter((task) => task !== line.focus))];
  const width = LEFT + STEP * Math.max(1, timeline.length) + 20;
  const height = TOP + LANE * lanes.length + 8;
  const body: string[] = [label(4, 14, `${line.mode}`, { size: 12, weight: "bold" })];
  lanes.forEach((task, index) => {
    const y = TOP + LANE * index + LANE / 2;
    body.push(`<line x1="${LEFT - 6}" y1="${at(y)}" x2="${at(width - 10)}" y2="${at(y)}" stroke="#e5e7eb"/>`);
    body.push(label(LEFT - 10, y + 4, shortTask(task) + (task === line.focus ? " (focus)" : ""), { anchor: "end", size: 10 }));
  });
  for (const index of newSessionStarts(line, timeline)) {
    const x = LEFT + STEP * index;
    body.push(
      `<line class="new-session" x1="${at(x)}" y1="${TOP - 4}" x2="${at(x)}" y2="${at(height - 4)}" stroke="#6b7280" stroke-dasharray="4 3"><title>a new OpenCode session starts</title></line>`,
    );
  }
  timeline.forEach((entry, index) => {
    const x = LEFT + STEP * index + STEP / 2;
    const y = TOP + LANE * lanes.indexOf(entry.task) + LANE / 2;
    const radius = entry.continuation ? 4 : 7;
    const routed =
      entry.confidence === undefined
        ? narrows || line.mode === "native"
          ? "not routed"
          : "every task's history in view (memory routes only to file its records)"
        : `routed to ${entry.routed_to ?? "?"} at ${entry.confidence}${entry.fallback ? ", below the threshold: full history" : ""}`;
    const calls = entry.call_input_tokens.length;
    const title = `${entry.task} ${entry.stage}${entry.continuation ? " (continuation)" : ""}: ${routed}; ${calls} model call${calls === 1 ? "" : "s"}`;
    body.push(
      `<circle class="mark" data-confidence="${entry.confidence ?? ""}" cx="${at(x)}" cy="${at(y)}" r="${radius}" fill="${confidenceColour(entry.confidence, bins)}"><title>${escapeHtml(title)}</title></circle>`,
    );
    if (entry.fallback)
      body.push(
        `<circle class="fallback" cx="${at(x)}" cy="${at(y)}" r="${radius + 3}" fill="none" stroke="#111827" stroke-width="1.5" stroke-dasharray="2 2"/>`,
      );
  });
  return svgElement({ width, height, label: `${line.session_id} in ${line.mode}: requests by task, coloured by routing confidence`, kind: "timeline", body });
}

/**
 * Where a resumed session run's second and third OpenCode sessions start: at its first request of
 * another task, and at the focus's first request after those. None in the other conditions.
 */
function newSessionStarts(line: ResultLine, timeline: readonly TimelineEntry[]): number[] {
  if (line.condition !== "resumed") return [];
  const interrupted = timeline.findIndex((entry) => entry.task !== line.focus);
  const back = timeline.findIndex((entry, index) => index > interrupted && entry.task === line.focus);
  return interrupted > 0 && back > interrupted ? [interrupted, back] : [];
}

function withoutRouting(entry: TimelineEntry): TimelineEntry {
  const { routed_to: _routed, confidence: _confidence, fallback: _fallback, ...rest } = entry;
  return rest;
}

/** The legend for every timeline, drawn once. */
export function timelineLegend(bins: readonly ConfidenceBin[] = CONFIDENCE_BINS): string {
  const items = [
    ...bins.map((bin) => ({ colour: bin.colour, name: `confidence ${bin.name}` })),
    { colour: UNROUTED_COLOUR, name: "not routed; memory: every task in view" },
  ];
  const body: string[] = [];
  let x = 12;
  for (const item of items) {
    body.push(`<circle cx="${at(x)}" cy="14" r="6" fill="${item.colour}"/>`, label(x + 10, 18, item.name, { size: 11 }));
    x += Math.max(150, 10 + item.name.length * 6.2 + 24);
  }
  const ring = Math.round(x);
  body.push(
    `<circle cx="${ring}" cy="14" r="9" fill="none" stroke="#111827" stroke-width="1.5" stroke-dasharray="2 2"/>`,
    label(ring + 14, 18, "fallback: full history", { size: 11 }),
  );
  return svgElement({ width: ring + 170, height: 28, label: "Timeline legend", kind: "legend", body });
}

/** SWE-bench ids are long; the part after `__` names the task well enough in a lane. */
function shortTask(task: string): string {
  const tail = task.includes("__") ? task.slice(task.lastIndexOf("__") + 2) : task;
  return clip(tail, 22);
}
