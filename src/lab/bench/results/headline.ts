import type { ResultLine } from "../run-dir/result-line.js";
import {
  CONTEXT_FAILURE_NAMES,
  carriedSummary,
  carriedText,
  contextFailure,
  gapPoints,
  hasResumed,
  linesOf,
  modesOf,
  percent,
  recoveredShare,
  resolvedRate,
} from "./summaries.js";

/**
 * What the results mean, in a sentence or two at the top of a report: native's gap between
 * uninterrupted and switched sessions, why its switched sessions failed where the run knows,
 * and how much of the gap each other mode recovers. Numbers only as the tables give them.
 */
export function headline(results: readonly ResultLine[]): string {
  const resumed = resumedSentence(results);
  return resumed === undefined ? gapSentence(results) : `${gapSentence(results)} ${resumed}`;
}

function gapSentence(results: readonly ResultLine[]): string {
  const uninterrupted = resolvedRate(linesOf(results, "native", "uninterrupted"));
  const switched = resolvedRate(linesOf(results, "native", "switched"));
  const gap = gapPoints(results, "native");
  if (uninterrupted === undefined || switched === undefined || gap === undefined) {
    return "What it means: this run has no native uninterrupted and switched pair, so there is no gap to read; the tables below give each mode's resolution.";
  }
  const others = modesOf(results).filter((mode) => mode !== "native");
  if (gap <= 0) {
    return `What it means: native resolves ${percent(uninterrupted)} uninterrupted and ${percent(switched)} switched, so interruptions cost it nothing here and there is no gap for ${others.join(", ") || "another mode"} to recover.`;
  }
  const failed = linesOf(results, "native", "switched").filter((line) => !line.resolved);
  const reasons = (["lost", "leaked"] as const)
    .map((why) => ({ why, count: failed.filter((line) => contextFailure(line) === why).length }))
    .filter(({ count }) => count > 0)
    .map(({ why, count }) => `${count} by a ${CONTEXT_FAILURE_NAMES[why]}`);
  const because = reasons.length > 0 ? ` (of its ${failed.length} switched failures, ${reasons.join(" and ")})` : "";
  const recovered = others.map((mode) => `${mode} ${percent(recoveredShare(results, mode), 0)}`);
  const recovers = recovered.length > 0 ? ` Recovered of that gap: ${recovered.join(", ")}.` : "";
  return `What it means: interrupting the focus task with other tasks costs native ${gap.toFixed(1)} points (${percent(uninterrupted)} uninterrupted, ${percent(switched)} switched)${because}.${recovers}`;
}

/**
 * A run with resumed sessions: each mode's resolution when the focus's last stage comes in a new
 * OpenCode session, and how many of its earlier requirements reached that session's first call.
 */
function resumedSentence(results: readonly ResultLine[]): string | undefined {
  if (!hasResumed(results)) return undefined;
  const modes = modesOf(results).flatMap((mode) => {
    const group = linesOf(results, mode, "resumed");
    if (group.length === 0) return [];
    const carried = carriedSummary(group);
    return [`${mode} ${percent(resolvedRate(group))}${carried.sessions > 0 ? ` (requirements carried ${carriedText(carried)})` : ""}`];
  });
  return `Resumed the next day (the focus's last stage in a new OpenCode session): ${modes.join(", ")}.`;
}
